export const PASSWORD_MIN_LENGTH = 10;
/** bcrypt ignores everything after 72 bytes; longer passwords would silently be truncated. */
export const PASSWORD_MAX_BYTES = 72;
export const NAME_MAX_LENGTH = 120;
export const EMAIL_MAX_LENGTH = 254;
