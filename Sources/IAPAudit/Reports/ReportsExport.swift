// Re-exported so that `import IAPAudit` is all the executable needs for `--format` and the report types that
// `ReportRunner` takes and returns: a typealias would not carry their members under `MemberImportVisibility`.
@_exported public import Reports
