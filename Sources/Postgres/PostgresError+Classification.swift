extension PostgresError {
    /// True when the server ran out of something every statement needs (class 53: disk full, out of memory; class
    /// 58: an I/O error): retrying another file cannot help, so a batch stops rather than failing file after file.
    package var isResourceExhaustion: Bool {
        guard let sqlState else { return false }
        return (sqlState.hasPrefix("53") && sqlState != "53300") || sqlState.hasPrefix("58")
    }

    /// True when the server's disk is full or failed (53100, 58030): an I/O error for the exit code.
    package var isStorageFailure: Bool { sqlState == "53100" || sqlState == "58030" }

    /// One line for a log or a quarantine message: context, message and SQLSTATE, without the DETAIL and HINT
    /// lines (a DETAIL can quote the row's values).
    package var summary: String {
        var text = ""
        if let context { text += "\(context): " }
        text += message
        if let sqlState { text += " (SQLSTATE \(sqlState))" }
        return text
    }
}
