'use strict';
// Session ticket keys one file gives every instance (TLS_TICKET_KEYS_FILE): a passthrough Route
// spreads a client's connections over the pods, and its ticket then resumes on any of them.
const crypto = require('node:crypto');
const fs = require('node:fs');

// Node's session ticket keys: 16 bytes of name, 16 of HMAC secret, 16 of AES key.
const TICKET_KEYS_BYTES = 48;

/**
 * Session ticket keys shared by every instance (TLS_TICKET_KEYS_FILE): a client's ticket then
 * resumes on any of them, not only on the instance that issued it. Throws unless 48 bytes.
 */
function readTicketKeys(file) {
  const keys = fs.readFileSync(file);
  if (keys.length !== TICKET_KEYS_BYTES) {
    throw new Error(
      `TLS_TICKET_KEYS_FILE must hold ${TICKET_KEYS_BYTES} bytes, ${file} holds ${keys.length}`,
    );
  }
  return keys;
}

/**
 * The https.createServer options that let every instance with the same keys resume each other's
 * sessions: the keys, and a session context of their own. Node's default context is a hash of
 * the process's arguments, which differ between instances, and OpenSSL refuses a ticket issued
 * under another context.
 */
function sharedSessions(ticketKeysFile) {
  const ticketKeys = readTicketKeys(ticketKeysFile);
  const sessionIdContext = crypto.createHash('sha256').update(ticketKeys).digest('hex').slice(0, 32);
  return { ticketKeys, sessionIdContext };
}

module.exports = { sharedSessions };
