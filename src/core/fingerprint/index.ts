// Public surface of the fingerprint module.
export { asciiLower, binaryStringToBytes, checksum, fingerprint, fingerprintKey } from './fingerprint.js';
