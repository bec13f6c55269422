// Public surface of the fingerprint module.
export {
  asciiLower,
  binaryStringToBytes,
  checksum,
  fingerprint,
  fingerprintKey,
  plainKeyHash,
  sameKey,
} from './fingerprint.js';
