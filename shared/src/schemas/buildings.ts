// Request schemas for the buildings domain (see common.ts for the building blocks).
export {};
