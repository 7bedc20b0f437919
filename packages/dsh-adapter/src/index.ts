/** Public entry (not implemented yet: see README). */
export {};
