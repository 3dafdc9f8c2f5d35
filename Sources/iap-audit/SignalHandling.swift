import Dispatch
import Foundation
import IAPAudit

/// SIGINT and SIGTERM ask the pipeline to stop after the file in progress; a second one stops at once.
enum SignalHandling {
    /// Kept alive for the life of the process.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    static func installStopHandlers() -> StopRequest {
        let stop = StopRequest()
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                if stop.signal != nil {
                    // Asked twice: the operator means now. The open transaction rolls back on its own.
                    _exit(128 + signalNumber)
                }
                stop.request(signal: signalNumber)
                FileHandle.standardError.write(
                    Data("iap-audit: stopping after the file in progress (signal again to stop at once)\n".utf8))
            }
            source.resume()
            sources.append(source)
        }
        return stop
    }
}
