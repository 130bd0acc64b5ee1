/** Flurry's own version, reported beside the reference-compatible one. */
export const FLURRY_VERSION = '0.1.0';
