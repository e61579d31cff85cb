#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a ``LoopbackReceiver`` could not be set up. One struct with static codes, so that
/// codes can be added without breaking a `switch`; `catch LoopbackError.addressInUse` works.
///
/// Its description names the address, the port and the failing call, never a secret.
public struct LoopbackError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable reason; `rawValue` is its wire name.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// `address_in_use`: every port asked for is taken (a fixed port or each of a list).
        public static let addressInUse = Code(rawValue: "address_in_use")
        /// `permission_denied`: the port needs privileges (below 1024 on many systems).
        public static let permissionDenied = Code(rawValue: "permission_denied")
        /// `unavailable`: the loopback address cannot be bound (no IPv6, no descriptors…).
        public static let unavailable = Code(rawValue: "unavailable")
        /// `invalid_configuration`: a bad path, port or host in the configuration.
        public static let invalidConfiguration = Code(rawValue: "invalid_configuration")

        /// Lets `catch LoopbackError.addressInUse` match by code.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? LoopbackError)?.code == code
        }
    }

    public let code: Code
    /// The `errno` of the failing call, 0 when no system call failed.
    public let systemError: Int32
    /// What failed, for a person: the call, the address and the port.
    public let detail: String

    public init(_ code: Code, systemError: Int32 = 0, _ detail: String) {
        self.code = code
        self.systemError = systemError
        self.detail = detail
    }

    public var description: String { "\(code): \(detail)" }

    public static let addressInUse = Code.addressInUse
    public static let permissionDenied = Code.permissionDenied
    public static let unavailable = Code.unavailable
    public static let invalidConfiguration = Code.invalidConfiguration

    init(_ socketError: SocketError, address: String, ports: String) {
        let code: Code
        switch socketError.code {
        case EADDRINUSE: code = .addressInUse
        case EACCES, EPERM: code = .permissionDenied
        default: code = .unavailable
        }
        self.init(code, systemError: socketError.code, "cannot listen on \(address) port \(ports): \(socketError)")
    }
}
