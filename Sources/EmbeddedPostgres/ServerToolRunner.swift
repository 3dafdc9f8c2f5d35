import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs a PostgreSQL tool to completion with its output captured, optionally as the service user.
///
/// This spawns with `posix_spawn` rather than Foundation's `Process`: on Linux, `Process` learns that its child exited
/// from EOF on a socket the child inherits, and `pg_ctl start` passes that socket on to the postmaster, so
/// `waitUntilExit` would wait for as long as the server runs. Here the child gets /dev/null, the capture file and no
/// other descriptor, and we `waitpid` for it ourselves.
enum ServerToolRunner {
    struct Result {
        /// The command as shown in errors (the tool and its arguments, without the user-switching wrapper).
        let command: String
        let status: Int32
        /// The last lines (`outputLines`) of standard output and standard error, interleaved.
        let output: String
    }

    static func run(
        _ executable: String, _ arguments: [String], as serviceUser: ServiceUser? = nil, in directory: String? = nil,
        outputLines: Int = 20
    ) throws -> Result {
        let command = ([(executable as NSString).lastPathComponent] + arguments.map(displayed)).joined(separator: " ")
        var argv = [executable] + arguments
        if let directory {
            // posix_spawn's chdir action is a GNU extension Swift does not see; a service user would otherwise start
            // in our working directory (say /root), which it cannot read.
            argv = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", directory] + argv
        }
        if let serviceUser {
            if let setpriv = findExecutable("setpriv") {
                argv =
                    [setpriv, "--reuid=\(serviceUser.uid)", "--regid=\(serviceUser.gid)", "--init-groups", "--"] + argv
            } else if let runuser = findExecutable("runuser") {
                argv = [runuser, "-u", serviceUser.name, "--"] + argv
            } else {
                throw EmbeddedServerError.commandFailed(
                    command: command, status: -1,
                    output: "neither setpriv nor runuser (util-linux) is installed to run it as '\(serviceUser.name)'")
            }
        }
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("PG") }
        if serviceUser != nil, let directory {
            environment["HOME"] = directory
        }

        let capture = try CaptureFile()
        let pid: pid_t
        do {
            pid = try spawn(argv, environment: environment, output: capture.descriptor)
        } catch let error as SpawnError {
            throw EmbeddedServerError.commandFailed(
                command: command, status: -1, output: "could not launch \(argv[0]): \(error.reason)")
        }
        let status = wait(for: pid)
        return Result(command: command, status: status, output: capture.tail(lines: outputLines))
    }

    /// An argument as a reader would type it: double-quoted when it holds spaces.
    private static func displayed(_ argument: String) -> String {
        argument.contains(" ") ? "\"\(argument)\"" : argument
    }

    private struct SpawnError: Error {
        let reason: String
    }

    /// Spawns `argv` with stdin from /dev/null, stdout and stderr to `output`, every other descriptor closed, default
    /// signal handling, and its own process group (so a Ctrl-C meant for us does not reach the tool).
    private static func spawn(_ argv: [String], environment: [String: String], output: Int32) throws -> pid_t {
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        guard posix_spawn_file_actions_init(&actions) == 0 else { throw SpawnError(reason: "out of memory") }
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard posix_spawnattr_init(&attributes) == 0 else { throw SpawnError(reason: "out of memory") }
        defer { posix_spawnattr_destroy(&attributes) }

        var failures: [Int32] = [
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0),
            posix_spawn_file_actions_adddup2(&actions, output, 1),
            posix_spawn_file_actions_adddup2(&actions, output, 2),
        ]
        // Closing a descriptor that is not open is not an error for posix_spawn, so a generous range is fine.
        for descriptor in 3...highestOpenDescriptor() {
            failures.append(posix_spawn_file_actions_addclose(&actions, descriptor))
        }
        var defaultSignals = sigset_t()
        var noSignals = sigset_t()
        sigfillset(&defaultSignals)
        sigemptyset(&noSignals)
        failures += [
            posix_spawnattr_setsigdefault(&attributes, &defaultSignals),
            posix_spawnattr_setsigmask(&attributes, &noSignals),
            posix_spawnattr_setpgroup(&attributes, 0),
            posix_spawnattr_setflags(
                &attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)),
        ]
        if let failure = failures.first(where: { $0 != 0 }) {
            throw SpawnError(reason: String(cString: strerror(failure)))
        }

        let arguments = argv.map { strdup($0) } + [nil]
        let variables = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in arguments + variables { free(pointer) }
        }
        var pid = pid_t()
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, arguments, variables)
        guard result == 0 else { throw SpawnError(reason: String(cString: strerror(result))) }
        return pid
    }

    /// The exit status, or 128 + the signal number for a child killed by a signal (as shells report it).
    private static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }

    /// The highest descriptor number that may be open now, with a margin for ones other threads open meanwhile.
    private static func highestOpenDescriptor() -> Int32 {
        let margin: Int32 = 64
        if let names = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            return (names.compactMap { Int32($0) }.max() ?? 2) + margin
        }
        return Int32(min(max(sysconf(Int32(_SC_OPEN_MAX)), 256), 4096))
    }

    private static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let directories = path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/sbin", "/sbin"]
        return directories.map { ($0 as NSString).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// An anonymous (already unlinked) temporary file that collects a child's output.
    ///
    /// A file rather than a pipe: nothing has to drain it while the child runs, and reading it cannot hang on a
    /// writer that lives on.
    private final class CaptureFile {
        let descriptor: Int32

        init() throws {
            let directory = NSTemporaryDirectory()
            var template = Array((directory as NSString).appendingPathComponent("iap-audit-XXXXXX").utf8CString)
            let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return mkstemp(base)
            }
            guard descriptor >= 0 else {
                throw EmbeddedServerError.fileSystem(
                    operation: "create a temporary file in", path: directory, reason: EmbeddedServer.errnoText())
            }
            // Keep it out of children that other code spawns meanwhile (mkostemp is hidden behind _GNU_SOURCE).
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = template.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { unlink($0) } }
            self.descriptor = descriptor
        }

        deinit {
            close(descriptor)
        }

        func tail(lines: Int) -> String {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
            guard (try? handle.seek(toOffset: 0)) != nil, let data = try? handle.readToEnd() else { return "" }
            return EmbeddedServer.tail(of: String(decoding: data, as: UTF8.self), lines: lines)
        }
    }
}
