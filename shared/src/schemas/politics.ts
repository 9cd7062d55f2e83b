// Request schemas for the politics domain (see common.ts for the building blocks).
export {};
