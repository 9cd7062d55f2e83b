// Request schemas for the catalog domain (see common.ts for the building blocks).
export {};
