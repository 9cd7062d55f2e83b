// Request schemas for the stocks domain (see common.ts for the building blocks).
export {};
