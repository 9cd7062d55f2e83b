// Request schemas for the company domain (see common.ts for the building blocks).
export {};
