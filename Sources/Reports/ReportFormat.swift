/// A file format a report can be rendered to; the raw value is the file extension and the `--format` value.
package enum ReportFormat: String, CaseIterable, Sendable {
    case csv
    case json
    case md
    case html

    /// The file name extension, without the dot.
    package var fileExtension: String { rawValue }
}
