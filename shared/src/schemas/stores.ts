// Request schemas for the stores domain (see common.ts for the building blocks).
export {};
