internal import Foundation

/// Measures elapsed wall-clock seconds on the monotonic clock, for logs, summaries and metrics.
struct Stopwatch {
    private let start = DispatchTime.now()

    /// Starts measuring now.
    init() {}

    /// Seconds since the stopwatch was created.
    var seconds: Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }

    /// `seconds` with two decimals, as the ingest logs show it.
    var formattedSeconds: String {
        String(format: "%.2f", seconds)
    }
}
