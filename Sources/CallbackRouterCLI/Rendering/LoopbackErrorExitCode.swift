import CallbackLoopback

extension LoopbackError {
    /// The helper's exit code when the loopback receiver cannot start (design.md): 75 for a
    /// fixed port in use, 77 for a port that needs privileges, 64 for a configuration the
    /// receiver refuses, 69 for any other failure to bind.
    var exitCode: Int32 {
        switch code {
        case .addressInUse: return ExitCode.tryAgain
        case .permissionDenied: return ExitCode.permission
        case .invalidConfiguration: return ExitCode.usage
        default: return ExitCode.unavailable
        }
    }
}
