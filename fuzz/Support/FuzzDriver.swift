// What both libFuzzer targets share: their `main`, which hands over to libFuzzer's driver in a -DFUZZING build, and in
// an ordinary build (which has no libFuzzer to link) says which script builds and runs the target.
import Foundation

/// libFuzzer's callback for one input: the bytes and their count; returns 0.
public typealias FuzzTestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

public enum FuzzDriver {
    /// Runs libFuzzer over `testOneInput` with the program's arguments and exits with its status; without -DFUZZING,
    /// names `script` and exits 64.
    public static func main(_ testOneInput: FuzzTestOneInput, program: String, script: String) -> Never {
        #if FUZZING
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(runFuzzerDriver(&argc, &argv, testOneInput))
        #else
            FileHandle.standardError.write(Data("\(program): build and run it with \(script)\n".utf8))
            exit(64)
        #endif
    }
}

#if FUZZING
    /// libFuzzer's driver: the program keeps its own `main` (SwiftPM's), which hands over to it.
    @_silgen_name("LLVMFuzzerRunDriver")
    private func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ testOneInput: FuzzTestOneInput
    ) -> CInt
#endif
