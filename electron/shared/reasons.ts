// Why main refused or failed, beyond the error code: one key per sentence staff can be shown,
// with its English text. Main sends the key and its parameters (ErrorInfo.reason/params); the
// renderer shows the locale text for the key (src/i18n: `reasons` in en is this table, fr-CA
// translates every key, and a test holds the two to the same keys and placeholders). Main's
// English `message` is built from the same template, for the log.
//
// Placeholders are vue-i18n's `{name}`; no other vue-i18n syntax (`|`, `@`) may appear.

export const REASONS = {
  'connection.none': 'No connection is set up yet. Choose the sandbox or a partner service first.',
  'connection.library-not-in-profile': 'Library {libraryId} is not part of the connection "{profile}".',
  'connection.no-credentials': 'No saved username and password for "{profile}". Enter them in Settings → Connections.',
  'connection.password-for-other-address': 'The saved password for "{profile}" was entered for {savedOrigin}, not {origin}. Enter the password for {origin} in Settings → Connections.',
  'connection.password-not-bound': 'The saved password for "{profile}" does not say which address it was entered for. Enter the password for {origin} in Settings → Connections.',
  'connection.not-a-lending-service': 'Nothing at this service address answers as the lending service (HTTP {status}). Check the address.',
  'action.not-borrowed': 'The lending service did not confirm the borrow, and the patron’s loans show the title was not borrowed: it is safe to try again.',
  'action.hold-not-placed': 'The lending service did not confirm the hold, and the patron’s holds show none was placed: it is safe to try again.',
  'action.still-on-loan': 'The lending service did not confirm the return, and the patron’s loans show the title is still on loan: it is safe to try again.',
  'action.hold-still-there': 'The lending service did not confirm the removal, and the patron’s holds show the hold is still in place: it is safe to try again.',
  // An answer that names another content than the one asked (issue #24): never reported as done for the title asked.
  'action.borrow-answered-other': 'The lending service answered this borrow about another title (id {answered}) than the one asked for (id {asked}); the patron’s loans, read again, do not show {asked}. Check the loans with the patron before trying again.',
  'action.borrow-answered-other-on-loan': 'The lending service answered this borrow about another title (id {answered}) than the one asked for (id {asked}); the patron’s loans, read again, show {asked} on loan. Check the loans with the patron: the other title may have been lent too.',
  'action.hold-answered-other': 'The lending service answered this hold about another title (id {answered}) than the one asked for (id {asked}); the patron’s holds, read again, do not show {asked}. Check the holds with the patron before trying again.',
  'action.hold-answered-other-placed': 'The lending service answered this hold about another title (id {answered}) than the one asked for (id {asked}); the patron’s holds, read again, show {asked} on hold. Check the holds with the patron: another hold may have been placed too.',
  'action.outcome-unknown': 'The lending service did not answer clearly, and the patron’s account could not be read to see whether it took effect: look at the account before trying again.',
  'profile.not-found': 'There is no connection profile "{id}".',
  'profile.sandbox-name-reserved': 'That profile name is reserved for the built-in sandbox.',
  'profile.sandbox-needs-no-credentials': 'The built-in sandbox needs no credentials.',
  'session.locked': 'The desk is locked. Sign in with your name and PIN to continue.',

  // ---- managed configuration (electron/main/policy): edits the policy refuses, why a policy source
  // was ignored ({source} is the file or registry key, {setting} the policy setting concerned — not
  // translated, it is what IT wrote), and why automatic updates were refused.
  'policy.profile-locked': "This connection is set by your library's IT (policy) and cannot be changed here.",
  'policy.profile-locked-remove': "This connection is set by your library's IT (policy) and cannot be removed.",
  'policy.sandbox-off': "The sandbox is turned off on this computer by your library's IT.",
  'policy.idle-lock-locked': "The idle lock is set by your library's IT (policy) and cannot be changed here.",
  'policy.profiles-frozen': "Connections cannot be added, changed or removed while the policy from your library's IT is ignored (see Settings).",
  'policy.wrong-owner': '{source} is owned by user {owner}, not by {expected}.',
  'policy.writable-by-others': '{source} can be changed by users other than {expected} (permissions {mode}).',
  'policy.symbolic-link': '{source} is a symbolic link; the policy must be the file itself.',
  'policy.not-a-file': '{source} is not a regular file.',
  'policy.unreadable': '{source} could not be read ({code}).',
  'policy.too-large': '{source} is larger than {limit} KiB.',
  'policy.not-json': '{source} is not valid JSON ({detail}).',
  'policy.not-plist': '{source} could not be read as a property list ({detail}).',
  'policy.registry-type': '{source} holds {setting} as {type}, which the policy does not accept there.',
  'policy.unknown-field': '{source} has a field Lending Desk does not know: {setting}.',
  'policy.credential-field': '{source} holds a credential ({setting}); user names and passwords are entered on each computer and kept in its keychain.',
  'policy.invalid-value': 'In {source}, {setting} is not valid: {rule}',
  'updates.unverified-windows-build': 'this Windows build names no verified publisher (it was not signed), so the signature of an update could not be checked.',
  'updates.linux-auto': 'on Linux the policy may set updates to "it-managed" or "off" only: Linux packages carry no signature the app could check.',
  'updates.installed-for-all-users': 'this copy is installed for all users of this computer (the MSI, or the installer’s per-machine choice), so it never updates itself.',
  'updates.unsigned-mac-build': 'this macOS build is not signed with a Developer ID, so macOS would not install an update to it.',

  // ---- The contract's argument checks, cards, service addresses, settings and the keychain
  // (renderer/French helper, issue #12 item 6). {field} is a key of FIELD_NAMES
  // (shared/field-names.ts): main's log gets the English name, the renderer the locale's.
  'input.unknown-request': 'Unknown request.',
  'input.not-valid': 'The request was not valid.',
  'input.takes-no-details': 'This request takes no details.',
  'input.details-missing': 'The details of this request are missing or of the wrong kind.',
  'input.unexpected-field': 'Unexpected field: {fields}.',
  'input.unexpected-fields': 'Unexpected fields: {fields}.',
  'input.unexpected-fields-more': 'Unexpected fields: {fields} and {more} more.',
  'input.required': '{field}: is required.',
  'input.whole-number': '{field}: must be a whole number.',
  'input.number': '{field}: must be a number.',
  'input.text': '{field}: must be text.',
  'input.yes-no': '{field}: must be yes or no.',
  'input.list': '{field}: must be a list.',
  'input.wrong-kind': '{field}: has the wrong kind of value.',
  'input.not-empty': '{field}: must not be empty.',
  'input.min-characters': '{field}: must be at least {min} characters.',
  'input.min-item': '{field}: needs at least {min} item.',
  'input.min-items': '{field}: needs at least {min} items.',
  'input.at-least': '{field}: must be at least {min}.',
  'input.more-than': '{field}: must be more than {min}.',
  'input.too-long': '{field}: is too long (at most {max} characters).',
  'input.too-many-items': '{field}: has too many items (at most {max}).',
  'input.at-most': '{field}: must be at most {max}.',
  'input.less-than': '{field}: must be less than {max}.',
  'input.one-of': '{field}: must be one of: {values}.',
  'input.bad-form': '{field}: is not in the expected form.',
  'input.hidden-characters': '{field}: must not contain control or invisible characters.',
  'input.no-such-profile-id': 'There is no connection profile with that id (ids are lowercase letters, digits and hyphens).',
  'input.ws-api': 'The ws-api value may hold only letters, digits, dots and hyphens (such as 2.1).',
  'input.library-id': 'The library id must be a positive whole number.',
  'input.title-id': 'That is not a content id the service gives (a positive whole number, or the service’s own text id of up to 100 characters).',
  'service.invalid-request': 'The lending service refused the request as not valid.',
  'desk.unexpected': 'Lending Desk hit an unexpected problem. It has been logged; try again.',
  'desk.no-answer': 'Lending Desk did not answer this request. Try again; if it keeps happening, restart the app.',
  'card.not-text': 'The library card must be text.',
  'card.empty': 'Enter a library card number.',
  'card.too-long': 'That library card is too long (more than 64 characters).',
  'card.control-character': 'The library card contains a control character.',
  'card.not-valid-text': 'The library card contains a character that is not valid text.',
  'card.invisible-character': 'The library card contains an invisible formatting character.',
  'card.not-a-card': 'That is not a library card number.',
  'address.not-text': 'The service address must be text.',
  'address.hidden-character': 'The service address contains a control or invisible character.',
  'address.not-web': 'The service address is not a web address (such as https://lending.example.org).',
  // The published examples of the service use a plain-http host: say why the desk refuses it, and what to type instead.
  'address.scheme': 'The desk sends credentials only over https; use https:// with the same address (plain http:// is accepted only for this computer, such as a local sandbox).',
  'address.query': 'The service address must not carry a query or fragment (? or #).',
  'address.credentials': 'The service address must not carry a user name or password; enter those in their own fields.',
  // Why the settings file was not used at start (the desk runs on defaults and leaves the file as it is).
  'settings-file.not-object': 'The settings file does not hold a settings object.',
  'settings-file.not-json': 'The settings file is not valid JSON.',
  'settings-file.unreadable': 'The settings file could not be read ({cause}).',
  'settings-file.no-version': 'The settings file has no valid version number.',
  'settings-file.newer': 'The settings file was written by a newer Lending Desk (settings version {version}; this one reads up to {supported}).',
  'settings-file.not-migrated': 'The settings file (version {version}) could not be brought up to date.',
  'settings.not-valid': 'The settings could not be saved: a value is not valid.',
  'settings.profile-id': 'Profile id must be 1 to 40 lowercase letters, digits or hyphens.',
  'settings.profile-name-empty': 'Profile name must not be empty.',
  'settings.profile-name-long': 'Profile name must be at most 80 characters.',
  'settings.service-address': 'Service address must be an https:// URL (http:// only for this computer: localhost, 127.x.x.x or [::1]), without user name, password, query or fragment.',
  'settings.library-id': 'Library id must be a positive whole number.',
  'settings.library-name-long': 'Library name must be at most 80 characters.',
  'settings.needs-library': 'A partner profile needs at least one library.',
  'settings.too-many-libraries': 'A profile can hold at most 20 libraries.',
  'settings.library-repeated': 'Each library id may appear only once in a profile.',
  'settings.ws-api-long': 'ws-api version must be at most 10 characters.',
  'settings.country': 'Country must be one of US, CA, AU, NZ.',
  'settings.idle-lock': 'Idle lock must be a whole number of minutes from 1 to 240.',
  'settings.language': "Language must be 'en' or 'fr-CA'.",
  'credentials.profile-id': 'The connection profile id must be 1 to {max} characters.',
  'credentials.username-length': 'The partner username must be 1 to {max} characters.',
  'credentials.username-control': 'The partner username must not contain control characters (tabs, line breaks).',
  'credentials.password-length': 'The partner password must be 1 to {max} characters.',
  'keychain.unavailable': 'The system keychain is not available, so the partner password cannot be stored or read safely. On Linux, install and unlock a Secret Service (GNOME Keyring or KWallet) and sign in again.',
  // The desk as it ships (main's start-up)
  'start.debugging-refused': 'Lending Desk does not start with debugging options ({flags}). Start it from its usual shortcut, without extra options.',

  // ---- The shared desk (issue #13): signing in with a PIN, the desk PIN, the action log's key
  // and filters. {seconds} is a whole number; {profile} is a connection's name.
  'sign-in.wrong': 'The name or PIN is not right.',
  'sign-in.wrong-last-try': 'The name or PIN is not right. One more wrong try and the desk waits before it takes the next.',
  'sign-in.wait': 'Too many wrong tries. The desk takes the next try in {seconds} seconds.',
  'sign-in.no-desk-pin': 'No desk PIN is set on this computer yet. Set one first.',
  'pin.set-by-policy': "PINs on this computer are set by your library's IT (policy). Ask IT to change yours.",
  'pin.partner-password-needed': 'Enter the partner password of "{profile}" to set or change the desk PIN.',
  'pin.partner-username-needed': 'No partner password for "{profile}" is saved on this computer. Enter the partner username and password: they are tested with the service, then saved.',
  'pin.partner-password-wrong': 'That is not the partner password of "{profile}".',
  'pin.current-pin-needed': 'Enter the current desk PIN to change it.',
  'pin.current-pin-wrong': 'That is not the current desk PIN.',
  'action-log.keychain-unavailable': 'The action log cannot be kept safely because the system keychain is not available, so this desk does not borrow, return or change holds until it is. On Linux, install and unlock a Secret Service (GNOME Keyring or KWallet) and sign in again.',
  'input.card-ending': 'Card: enter up to the last four characters.',
  'policy.plain-pin': '{source} holds a PIN in plain text ({setting}); the policy takes only its scrypt hash (staffPins[].pinHash, made with scripts/pin-hash.ts).',

  // ---- A shared desk trusts only what its user cannot forge (issue #21): sign-in state and
  // connection records in the keychain, PIN rules, a refused policy, start-up options, the
  // response cap. {profile} is a connection's name; {flags} the options as typed.
  'keychain.desk-records-unavailable': 'The system keychain is not available, so this desk cannot check who may sign in or which connections it set up. On Linux, install and unlock a Secret Service (GNOME Keyring or KWallet) and sign in again.',
  'pin.too-short': 'A PIN must be at least 6 characters.',
  'pin.too-long': 'A PIN must be at most 64 characters.',
  'pin.too-common': 'That PIN is too easy to guess (a repeated character, a run such as 123456, a repeated group or one of the most common PINs). Choose another.',
  'sign-in.pin-below-rules': 'PINs on this desk are at least 6 characters and not easy to guess, and this one is not. Ask your library’s IT for a new PIN (scripts/pin-hash.ts makes only PINs that meet the rules).',
  'sign-in.reestablish-first': 'This desk must be set up again before anyone signs in: its sign-in record is missing or was not written by this desk.',
  'sign-in.policy-refused': "Nobody can sign in: the policy from your library's IT is on this computer but was refused. IT must correct it.",
  'pin.ask-it': "Nothing on this computer can prove who may set the desk PIN (no partner password is saved for the connections set up before). Ask your library's IT.",
  'pin.connection-too-new': 'The connection "{profile}" was added or changed during this shift, so its password cannot set the desk PIN yet: it can from the next shift on.',
  'profile.too-many': 'This desk can hold at most {max} partner connections.',
  'connection.changed-outside': 'The connection "{profile}" was changed outside Lending Desk (its address or libraries in the settings file are not the ones saved here), so it is not used. Tell your library’s IT: setting it up again takes the partner password.',
  'policy.profiles-set-by-it': "Connections on this computer are set by your library's IT: they cannot be added, re-addressed or removed here.",
  'settings.idle-lock-unmanaged': "The idle lock can be at most 30 minutes, unless your library's IT sets more in its policy.",
  'start.network-refused': "Lending Desk does not start with options that change how it reaches the network ({flags}). Your library's IT sets proxies in the operating system's settings. Start it from its usual shortcut.",
  'service.response-too-large': 'The lending service sent an answer larger than {limit} MiB, which the desk does not read. Try again; if it keeps happening, tell the service.',
  // The service's pacing (issue #34): a staff call that would wait longer than a few seconds is answered at once.
  'service.wait': 'The lending service asked the desk to wait {seconds} seconds before asking again: try again then.',
  'call.cancelled': 'A newer request took the place of this one, so it was stopped.',
  'service.token-type': 'The lending service issued a token of type "{type}", not a bearer token, so the desk did not use it. Tell your library’s IT.',

  // ---- The sync and the mirror (issue #23). {token} is the service's page token; sizes are MiB.
  'pull.token-cycle': 'The lending service sent page tokens that lead back to a page already read (token {token}), so the sync stopped there instead of reading the same pages again. Try again later; if it keeps happening, tell your library’s IT.',
  'mirror.disk-full': 'The Collection on this computer stopped growing: the disk has {freeMiB} MiB free and the desk keeps {keptMiB} MiB free for this computer’s own work. What was copied before stays as it was; free some disk space, then sync again to go on from there.',
  'sync.cancelled': 'The sync stopped because its connection was closed. The next sync goes on from where it stopped.',

  // ---- A desk in a library (issue #25): its Collection comes from the library mirror. Staff read these on
  // the Sync page: no server address or role name in them (issue #35: those are on Settings, IT's page, and in the app log).
  'library-mirror.unreachable': 'Your library’s mirror could not be reached; the desk tries again every minute.',
  'library-mirror.certificate': 'Your library’s mirror did not show a certificate this computer trusts, so the desk did not connect. Tell your library’s IT.',
  'library-mirror.password': 'Your library’s mirror refused this desk: the password of the desk’s role in this computer’s keychain is missing or wrong. Tell your library’s IT.',
  'library-mirror.refused': 'Your library’s mirror answered, but its catalog could not be read with the desk’s role. Tell your library’s IT.',
  'library-mirror.ca-unreadable': 'The certificate authority file your library’s IT named could not be read, so the desk did not connect to your library’s mirror. Tell your library’s IT.',
  'library-mirror.no-password': 'No password for the library mirror is kept in this computer’s keychain, so the desk did not connect. Your library’s IT sets it.',
  'library-mirror.password-entry-off': 'The library mirror’s password is set by your library’s IT tools on this computer, not in Settings.',

  // ---- What stays on the desk holds (issue #33). {host} is the server's name as the desk asked for it.
  'policy.hidden-in-namespace': 'Lending Desk was started inside a user namespace where {mount} is covered by another mount, so {source} may be there and hidden: the desk does not run as if it had no policy. Start it from its usual shortcut.',
  'policy.file-unprotected': 'In {source}, {setting} ({file}) is not in a folder only administrators can change: put it under {folders}.',
  'connection.intercepted': 'The connection to {host} was refused: a proxy or a certificate installed on this PC intercepted it (the server’s certificate does not come from a public certificate authority, nor from one your library’s IT named). Tell your library’s IT.',
  // ---- The desk as staff use it (issue #35): a scan refused by the library's card rules before any
  // request ({library} is the library on the desk, {other} the one whose card it is), who may read
  // the log by card or export it, the unknown outcome. Library names are words staff see.
  'card.wrong-prefix': 'Cards of {library} start with {prefix}, and this number does not. Check it with the patron, or scan the card again.',
  'card.wrong-length': 'Cards of {library} have {length} characters, and this number has {count}. Scan the card again, or check the number with the patron.',
  'card.not-digits': 'Cards of {library} are made of digits only, and this number is not.',
  'card.check-digit': 'This is not a card number of {library}: its last digit (the check digit) does not match the others, so it was misread or mistyped. Scan the card again.',
  'card.item-barcode': 'This is an item barcode (from a book, disc or kit), not a library card. Scan the patron’s card.',
  'card.other-library': 'This is a card of {other}, not of {library}. Switch to {other} to look it up.',
  'log.managers-only': 'Only a manager may look the log up by card or export it: reading what a card borrowed is a patron’s reading history. Ask a manager, or your library’s IT.',
  'log.export-pin-needed': 'Enter your PIN again to export the log.',
  'log.export-pin-wrong': 'That is not the PIN you signed in with. The export needs it.',
  'library-mirror.managers-only': 'Only a manager, or your library’s IT with its own tools, may replace the library mirror’s password.',
  // ---- the library server (issue #31): every partner call of a desk in a library goes through it ----
  'library-server.unreachable': 'The library server could not be reached, so nothing was sent to the lending service. Try again in a moment; if it keeps happening, tell your library’s IT.',
  'library-server.certificate': 'The library server did not show the certificate your library’s IT named, so the desk did not connect. A proxy or a program on this computer may be in the way. Tell your library’s IT.',
  'library-server.not-enrolled': 'This desk is not enrolled with the library server, so it cannot reach the lending service. Your library’s IT enrols it.',
  'library-server.revoked': 'Your library’s IT has withdrawn this desk from the library server, so it cannot reach the lending service. Tell your library’s IT.',
  'library-server.enrolment-code': 'That enrolment code was not accepted: it was used already, it expired, or it was mistyped. Ask your library’s IT for a new one.',
  'library-server.refused': 'The library server refused the request (status {status}). Tell your library’s IT.',
  'library-server.enrolled-already': 'This desk is already enrolled with the library server.',
  'library-server.none': 'This desk has no library server: your library’s IT names one in its policy.',
  'library-server.staff-wrong': 'That name and PIN do not match at the library server. {triesLeft} more tries before the desk waits.',
  'library-server.staff-wait': 'Too many wrong PINs for this name or at this desk: the library server waits {seconds} seconds before the next try.',
  'library-server.staff-disabled': 'This member of staff cannot sign in: IT has disabled the account at the library server.',
  'library-server.manager-only': 'Only a manager reads the audit trail; the library server recorded the attempt.',
  'library-server.session-ended': 'Your shift at the library server has ended (it reached its length, or IT ended it): sign in again.',
  'library-server.audit-unavailable': 'The library server could not write this action to its audit trail, so it did not send it. Nothing was done; tell your library’s IT.',
} as const;

export type Reason = keyof typeof REASONS;

export function isReason(value: unknown): value is Reason {
  return typeof value === 'string' && Object.hasOwn(REASONS, value);
}

/** The English sentence of a reason with its parameters filled in (for main's log and `message`). */
export function reasonText(reason: Reason, params: Record<string, string | number> = {}): string {
  return REASONS[reason].replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}
