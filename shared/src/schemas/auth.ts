// Request schemas for the auth domain (see common.ts for the building blocks).
export {};
