/// Which files in a directory `ingest sales` reads: report text, optionally gzip-compressed.
enum SalesFileKind {
    /// `.txt`, `.tsv` or `.csv`, each optionally followed by `.gz` (Apple delivers `.txt.gz`); a bare `.gz` too.
    /// Files named explicitly on the command line are read whatever their name.
    static func accepts(fileName: String) -> Bool {
        var name = fileName.lowercased()
        if name.hasSuffix(".gz") {
            name.removeLast(3)
            if !name.contains(".") { return true }
        }
        return name.hasSuffix(".txt") || name.hasSuffix(".tsv") || name.hasSuffix(".csv")
    }
}
