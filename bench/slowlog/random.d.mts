/** mulberry32: numbers in [0, 1) from a 32-bit seed (the same sequence on every run). */
export function mulberry32(seed: number): () => number;
