// Request schemas for the market domain (see common.ts for the building blocks).
export {};
