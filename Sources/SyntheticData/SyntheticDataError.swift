/// Why generating data failed.
package enum SyntheticDataError: Error, Sendable, CustomStringConvertible {
    /// A scenario knob is out of range.
    case invalidScenario(String)
    /// A file or directory could not be written.
    case cannotWrite(path: String, reason: String)

    /// What failed, on what, and why.
    package var description: String {
        switch self {
        case .invalidScenario(let problem): "invalid scenario: \(problem)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        }
    }
}
