package import AppStoreFormats
package import AppStoreSignatures
internal import Foundation

/// Settings every command shares, resolved from flags, the environment and the configuration file by
/// `ResolvedSettings.resolve`.
package struct Settings: Sendable {
    /// Where the database is.
    package var database: DatabaseLocation
    /// The process environment (libpq and the embedded server read it too).
    package var environment: [String: String]
    /// Turns usernames into stored keys (with the pepper, if one is configured).
    package var hasher: AccountKeyHasher
    /// Any quarantined record makes the command fail (exit 65).
    package var isStrict = false
    /// A receipt file changed less than this many seconds ago may still be being written: its incomplete end waits
    /// for a later run (`IAP_AUDIT_SETTLING_SECONDS`).
    package var settlingSeconds = ReceiptIngest.defaultSettlingSeconds
    /// Ingest reads every input file, also those stored before and unchanged since (same path, size and
    /// modification time), which are otherwise skipped unread (`--rehash`).
    package var isRehash = false
    /// The longest a statement waits for a lock another session holds before the command gives up with exit 75,
    /// naming that session (`IAP_AUDIT_LOCK_TIMEOUT`, seconds).
    package var lockTimeout: Double = 120
    /// The longest one call waits for any answer from the server before the connection is given up as broken and
    /// the command exits 69 (`IAP_AUDIT_SERVER_TIMEOUT`, seconds). Generous: a rule over years of data is slow, not
    /// dead; this bounds a server that stopped.
    package var serverTimeout: Double = 1800
    /// Root certificates trusted beside Apple Root CA - G3 for signed data (DER or PEM files): `--trusted-root`,
    /// `IAP_AUDIT_TRUSTED_ROOTS` (`:`-separated) and `verification.trusted_roots`, in that order.
    package var trustedRootPaths: [String] = []

    /// Settings from explicit values, every other one at its default. `ResolvedSettings.resolve` is where the
    /// flags, the environment and the configuration file set them.
    package init(database: DatabaseLocation, environment: [String: String], hasher: AccountKeyHasher) {
        self.database = database
        self.environment = environment
        self.hasher = hasher
    }

    /// Apple Root CA - G3, the roots `trustedRootPaths` name and `extraRootPaths` (a run's own); a file that cannot be
    /// read as certificates is a configuration error (exit 78), never a silent "nothing verifies".
    package func trustStore(adding extraRootPaths: [String] = []) throws(IAPAuditError) -> TrustStore {
        var store = TrustStore.apple
        for path in trustedRootPaths + extraRootPaths {
            do {
                try store.addRoots(contentsOfFile: path)
            } catch {
                throw IAPAuditError.configuration(error.description)
            }
        }
        return store
    }

    /// The stored key of an application username, peppered as `environment` configures (`hash-username`).
    package static func accountKey(
        forUsername name: String, environment: [String: String]
    ) throws(IAPAuditError)
        -> String
    {
        AccountKeyHasher(pepper: try pepper(environment: environment)).key(forUsername: name)
    }

    /// Resolves the pepper: `IAP_AUDIT_PEPPER_FILE` (a file holding it), else `IAP_AUDIT_PEPPER`; never a flag, so
    /// it never shows in `ps` or shell history.
    package static func pepper(environment: [String: String]) throws(IAPAuditError) -> [UInt8]? {
        if let path = environment["IAP_AUDIT_PEPPER_FILE"], !path.isEmpty {
            guard let file = FileHandle(forReadingAtPath: path) else {
                throw IAPAuditError.configuration("cannot read the pepper file named by IAP_AUDIT_PEPPER_FILE")
            }
            defer { try? file.close() }
            // Checked on the open file, so the file judged is the file read.
            guard let status = InputFiles.modeAndOwner(of: file) else {
                throw IAPAuditError.configuration("cannot read the pepper file named by IAP_AUDIT_PEPPER_FILE")
            }
            try checkPrivate(pepperFile: path, mode: status.mode, owner: status.owner)
            var bytes: [UInt8]
            do {
                // nil at once means an empty file, refused below.
                bytes = Array(try file.readToEnd() ?? Data())
            } catch {
                throw IAPAuditError.configuration("cannot read the pepper file named by IAP_AUDIT_PEPPER_FILE")
            }
            // Editors add a final newline; it is not part of the secret.
            while let last = bytes.last, last == 0x0A || last == 0x0D { bytes.removeLast() }
            guard !bytes.isEmpty else { throw IAPAuditError.configuration("the pepper file is empty") }
            try checkLength(bytes, "the pepper file \(path)")
            return bytes
        }
        if let pepper = environment["IAP_AUDIT_PEPPER"], !pepper.isEmpty {
            try checkLength(Array(pepper.utf8), "IAP_AUDIT_PEPPER")
            return Array(pepper.utf8)
        }
        return nil
    }

    /// The shortest pepper accepted, in bytes: SHA-256's output length, below which RFC 2104 (section 3) says an
    /// HMAC key weakens it; a short pepper is guessed as easily as the e-mail addresses it is meant to protect.
    package static let minimumPepperBytes = 32

    private static func checkLength(_ pepper: [UInt8], _ source: String) throws(IAPAuditError) {
        guard pepper.count >= minimumPepperBytes else {
            throw IAPAuditError.configuration(
                "\(source) holds a pepper of \(pepper.count) bytes; HMAC-SHA256 needs at least \(minimumPepperBytes) "
                    + "to be worth having: head -c 32 /dev/urandom | base64 > FILE makes one")
        }
    }

    /// Refuses a pepper file others could read or change, as ssh refuses such a private key: group or other
    /// permission bits, or an owner other than this process's user or root (docs/decisions.md, Operating).
    static func checkPrivate(pepperFile path: String, mode: UInt32, owner: UInt32) throws(IAPAuditError) {
        let permissions = mode & 0o777
        if permissions & 0o077 != 0 {
            throw IAPAuditError.configuration(
                "the pepper file \(path) is accessible by group or others (mode 0\(String(permissions, radix: 8))); "
                    + "the pepper must stay secret: chmod 600 \(path)")
        }
        let user = InputFiles.effectiveUser
        if owner != user && owner != 0 {
            throw IAPAuditError.configuration(
                "the pepper file \(path) belongs to another user (uid \(owner)), who could read or replace it; "
                    + "it must belong to the user iap-audit runs as (uid \(user)) or root: chown \(user) \(path)")
        }
    }
}

/// A setting in seconds read from the environment, with the range it accepts.
package struct SecondsSetting: Sendable {
    /// The environment variable.
    package let variable: String
    /// The values accepted; anything else (not a number, infinite, negative, too large) is exit 78.
    package let range: ClosedRange<Double>

    package static let settling = SecondsSetting(variable: "IAP_AUDIT_SETTLING_SECONDS", range: 0...86_400)
    /// 0 waits for a lock without limit (PostgreSQL's `lock_timeout` of 0); a day is far beyond any wait worth having.
    package static let lockTimeout = SecondsSetting(variable: "IAP_AUDIT_LOCK_TIMEOUT", range: 0...86_400)
    /// 0 turns the watchdog off; a week bounds even a rule over years of data.
    package static let serverTimeout = SecondsSetting(variable: "IAP_AUDIT_SERVER_TIMEOUT", range: 0...604_800)
    package static let all = [settling, lockTimeout, serverTimeout]

    /// The seconds `text` gives, or the configuration error naming the variable and the accepted range.
    package func value(_ text: String) throws(IAPAuditError) -> Double {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let seconds = Double(trimmed), seconds.isFinite, range.contains(seconds) else {
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            throw IAPAuditError.configuration(
                "\(variable)=\"\(shown)\" is not a number of seconds from \(Int(range.lowerBound)) to "
                    + "\(Int(range.upperBound))")
        }
        return seconds
    }
}

extension Settings {
    /// Checks every setting the environment gives as the TOML file's are checked: a value that is set but unusable is
    /// exit 78 naming the variable and what it accepts, never a crash or a silent default.
    package static func validateEnvironment(_ environment: [String: String]) throws(IAPAuditError) {
        for setting in SecondsSetting.all {
            if let text = environment[setting.variable], !text.isEmpty { _ = try setting.value(text) }
        }
    }
}
