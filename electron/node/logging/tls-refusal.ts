// A TLS refusal in our own words, for the log, the server's commands and the desk's check. Node's
// own message for a certificate it cannot verify ends with "if the root CA is installed locally,
// try running Node.js with --use-system-ca": advice that does not apply here — neither the
// library server nor the desk ever reads the operating system's certificate store; each trusts
// the CA file IT names for it (without one, the public CAs Node carries) — so it is never passed on.

/** Node's certificate errors (the chain, the name, the dates), by their code. */
export const CERTIFICATE_ERROR_CODES = /CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)|ALTNAME|HOSTNAME/;

/** Node's advice about the OS's store, as it appends it to a message. */
const SYSTEM_CA_ADVICE = /;?\s*if the root CA is installed locally, try running Node\.js with\s+--use-system-ca/gi;

const NOT_OUR_CA = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'UNABLE_TO_GET_ISSUER_CERT', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'CERT_SIGNATURE_FAILURE', 'CERT_UNTRUSTED', 'CERT_CHAIN_TOO_LONG',
]);

const codeOf = (error: unknown): string => String((error as { code?: unknown } | null)?.code ?? '');

/** Whether `error` is Node refusing a certificate (as opposed to a connection refused, a timeout, a password…). */
export const isCertificateError = (error: unknown): boolean => CERTIFICATE_ERROR_CODES.test(codeOf(error));

/**
 * Why a certificate was refused, in a sentence IT can act on; `trusted` names what it was checked
 * against (a CA file, or the public CAs). Undefined when `error` is not a certificate refusal.
 */
export function certificateRefusal(error: unknown, trusted = 'the CA file configured for it (without one, the public CAs built into Node)'): string | undefined {
  const code = codeOf(error);
  if (NOT_OUR_CA.has(code)) {
    return `its certificate was not issued by the certificate authority it is checked against: ${trusted}; the operating system's certificate store is never used (${code})`;
  }
  if (code === 'CERT_HAS_EXPIRED') return `its certificate has expired (${code})`;
  if (code === 'CERT_NOT_YET_VALID') return `its certificate is not valid yet: check this computer's clock (${code})`;
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return `its certificate was not issued for the name it was reached by (${plain(error)})`;
  if (isCertificateError(error)) return `its certificate was refused (${plain(error)})`;
  return undefined;
}

/** Node's message without its advice about the OS's certificate store. */
function plain(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(SYSTEM_CA_ADVICE, '').trim();
}

/** An error's message for the log or a command's output: a certificate refusal in our words, anything else as Node said it (never the --use-system-ca advice). */
export function errorText(error: unknown, trusted?: string): string {
  const refusal = certificateRefusal(error, trusted);
  return refusal === undefined ? plain(error) : `the server's certificate was refused: ${refusal}`;
}
