internal import AppStoreFormats
internal import Foundation

/// The files of an evidence bundle (docs/evidence.md) and its manifest: the SHA-256 and size of every other file, so
/// that `evidence verify` finds a changed, missing or added file and names it.
///
/// The manifest is not signed: there is no key to sign with offline. The exporter prints its SHA-256 for the sender
/// to give the receiver by another way (a case record, a letter); `verify --manifest-sha256` checks it.
enum EvidenceBundle {
    /// What a bundle's `format` says; `verify` refuses any other.
    static let format = "iap-audit-evidence/1"

    static let manifest = "manifest.json"
    /// The manifest's own SHA-256, as `sha256sum` writes it (`sha256sum -c manifest.sha256` checks it too): a changed
    /// manifest is named like any other file. A checksum, not a signature: whoever rewrites both goes unseen.
    static let manifestDigest = "manifest.sha256"
    static let index = "index.html"
    static let flags = "flags.json"
    static let records = "records.json"
    static let signatures = "signatures.json"
    static let inputFiles = "input-files.json"
    static let roots = "roots.json"
    /// Folders of the verbatim records, the signed objects and the trusted roots' DER.
    static let (recordsFolder, signedFolder, rootsFolder) = ("records", "signed", "roots")

    static func recordPath(_ receiptID: String) -> String { "\(recordsFolder)/receipt-\(receiptID).txt" }
    static func signedPath(_ receiptID: String, ordinal: Int) -> String {
        "\(signedFolder)/receipt-\(receiptID)-\(ordinal).jws"
    }
    static func rootPath(_ sha256: String) -> String { "\(rootsFolder)/\(sha256).der" }

    /// The text of manifest.sha256 for a manifest of digest `sha256`.
    static func manifestDigestLine(_ sha256: String) -> [UInt8] { Array("\(sha256)  \(manifest)\n".utf8) }

    /// Lowercase hex SHA-256 of `bytes`.
    static func sha256(_ bytes: some Collection<UInt8>) -> String {
        LowercaseHex.string(ContentHash.sha256(bytes))
    }

    /// `value` as JSON text: indented, keys sorted, a newline at the end; the same value always gives the same bytes.
    static func json(_ value: Any) throws -> [UInt8] {
        do {
            let data = try JSONSerialization.data(
                withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            return Array(data) + [0x0A]
        } catch {
            throw IAPAuditError.internalInconsistency("an evidence file cannot be written as JSON: \(error)")
        }
    }

    /// The JSON value in `bytes`, or nil when it is not JSON.
    static func parse(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Every regular file under `directory`, as paths relative to it, sorted; anything else that is not a folder
    /// (a link, a device) is listed too, so that `verify` refuses it as a file the manifest does not hold.
    static func files(in directory: String) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            throw IAPAuditError.input("cannot read the evidence bundle \(directory)")
        }
        var paths: [String] = []
        while let path = enumerator.nextObject() as? String {
            let type = enumerator.fileAttributes?[.type] as? FileAttributeType
            if type != .typeDirectory { paths.append(path) }
        }
        return paths.sorted()
    }

    /// Reads the file at `path` under `directory`.
    static func read(_ path: String, in directory: String) -> [UInt8]? {
        FileManager.default.contents(atPath: (directory as NSString).appendingPathComponent(path)).map(Array.init)
    }
}

/// Writes a bundle's files, remembering each one's digest for the manifest.
struct EvidenceBundleWriter {
    let directory: String
    private(set) var entries: [String: (sha256: String, bytes: Int)] = [:]

    /// Creates `directory`, which must not exist or be empty: a bundle is never written over other files.
    init(directory: String) throws {
        self.directory = directory
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw IAPAuditError.usage("--out \(directory) is a file") }
            let contents = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            guard contents.isEmpty else {
                throw IAPAuditError.usage("--out \(directory) is not empty: a bundle goes into a new or empty folder")
            }
        }
        for folder in ["", EvidenceBundle.recordsFolder, EvidenceBundle.signedFolder, EvidenceBundle.rootsFolder] {
            let path = (directory as NSString).appendingPathComponent(folder)
            do {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            } catch {
                throw OutputDirectory.failure(error, "cannot create \(path)")
            }
        }
    }

    /// Writes `bytes` at `path` (relative to the bundle) and records its digest.
    mutating func write(_ path: String, _ bytes: [UInt8]) throws {
        let url = URL(fileURLWithPath: (directory as NSString).appendingPathComponent(path))
        do {
            try Data(bytes).write(to: url)
        } catch {
            throw OutputDirectory.failure(error, "cannot write \(url.path)")
        }
        entries[path] = (EvidenceBundle.sha256(bytes), bytes.count)
    }

    /// The manifest's list of files: path, SHA-256 and size of each, sorted by path.
    var manifestFiles: [[String: Any]] {
        var files: [[String: Any]] = []
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) {
            var file: [String: Any] = [:]
            file["path"] = path
            file["sha256"] = entry.sha256
            file["bytes"] = entry.bytes
            files.append(file)
        }
        return files
    }
}
