// Public surface of the fingerprint module.
export { asciiLower, binaryStringToBytes, checksum, fingerprint } from './fingerprint.js';
