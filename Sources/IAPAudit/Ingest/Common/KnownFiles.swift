internal import Foundation
internal import Logging
internal import Postgres

/// Files whose whole content is stored and that have not changed since (`known_file`: the same path, size,
/// modification time, inode change time and inode): a run skips them without reading them, so its cost follows the new files, not the history.
///
/// A path is remembered only when a read found all of its bytes stored and the file had not changed for the settling
/// time: a file read up to its last complete line, or left for a later run, or written a moment ago is never taken
/// for done (docs/decisions.md, "Known files").
enum KnownFiles {
    /// Paths looked up per statement: bounds the statement's size on a spool of any size.
    static let lookupBatch = 5000

    /// The entries of `paths` that `known_file` holds with the size and modification time they have now.
    static func unchanged(
        _ paths: [String], of kind: InputFileRecord.Kind, on connection: Connection
    ) throws
        -> Set<String>
    {
        var found = Set<String>()
        var start = 0
        while start < paths.count {
            let slice = paths[start..<min(start + lookupBatch, paths.count)]
            start += slice.count
            var named: [String] = []
            var sizes: [String] = []
            var times: [String] = []
            var changes: [String] = []
            var inodes: [String] = []
            for path in slice {
                // A file that cannot be looked at now is read as usual, which reports why it cannot be.
                guard let stat = try? FileStat.of(path: path) else { continue }
                named.append(path)
                sizes.append(String(stat.size))
                times.append(String(stat.modifiedNanoseconds))
                changes.append(String(stat.changedNanoseconds))
                inodes.append(String(stat.inode))
            }
            guard !named.isEmpty else { continue }
            let result = try connection.query(
                SQLQuery.knownFileUnchanged.text, [kind.rawValue, named, sizes, times, changes, inodes],
                context: "look up known files")
            for row in result.allRows { found.insert(try row.decode(String.self, "path")) }
        }
        return found
    }

    /// Records that the file at `path`, as `stat` describes it, is stored whole with the hash `sha256` (an
    /// `input_file` row of `kind` with that hash exists, or is written in the same transaction).
    static func remember(
        path: String, kind: InputFileRecord.Kind, stat: FileStat, sha256: [UInt8], runID: Int64?,
        on connection: Connection
    ) throws {
        try connection.query(
            SQLQuery.knownFileRemember.text,
            [
                kind.rawValue, path, stat.size, String(stat.modifiedNanoseconds), PostgresBytes(sha256),
                runID.map { Int($0) }, String(stat.changedNanoseconds), String(stat.inode),
            ], context: "remember known file \(path)")
    }
}

extension InputFiles {
    /// Takes out of `files` those `known_file` holds unchanged (unless `isRehash`) and returns them, in order.
    mutating func takeUnchanged(
        kind: InputFileRecord.Kind, isRehash: Bool, on connection: Connection
    ) throws -> [String] {
        guard !isRehash, !files.isEmpty else { return [] }
        let unchanged = try KnownFiles.unchanged(files, of: kind, on: connection)
        guard !unchanged.isEmpty else { return [] }
        let taken = files.filter { unchanged.contains($0) }
        files.removeAll { unchanged.contains($0) }
        return taken
    }
}

extension IngestSummary {
    /// Skips the files `known_file` holds unchanged (unless `isRehash`): takes them out of `inputs`, counts them as
    /// already ingested and logs each.
    mutating func skipUnchanged(
        _ inputs: inout InputFiles, kind: InputFileRecord.Kind, isRehash: Bool, connection: Connection,
        logger: Logger
    ) throws {
        let unchanged = try inputs.takeUnchanged(kind: kind, isRehash: isRehash, on: connection)
        filesSeen += unchanged.count
        filesAlreadyIngested += unchanged.count
        filesUnchanged += unchanged.count
        // Each at debug level, one info line for all of them: a daily run finds the whole history here.
        for path in unchanged {
            logger.debug("already ingested (unchanged since stored)", metadata: ["file": "\(path)"])
        }
        if !unchanged.isEmpty {
            logger.info(
                "already ingested, not read: unchanged since stored (same size, modification and change time, inode)",
                metadata: ["files": "\(unchanged.count)", "kind": "\(kind.rawValue)"])
        }
    }
}
