/// Why a registration or a hand-off did not happen. One struct with static codes, so that
/// codes can be added without breaking a `switch`; `catch DesktopError.permission` works.
/// `message` names paths and reasons, never a URL or a parameter value.
public struct DesktopError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable reason; `rawValue` is its wire name.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// `permission`: a bad mode or owner, a foreign peer or socket (the helper exits 77).
        public static let permission = Code(rawValue: "permission")
        /// `unavailable`: nothing to deliver to, or the system refused (69).
        public static let unavailable = Code(rawValue: "unavailable")
        /// `usage`: a configuration the library will not touch (64).
        public static let usage = Code(rawValue: "usage")
        /// `rejected`: the request itself is refused, e.g. a scheme owned by another app (65).
        public static let rejected = Code(rawValue: "rejected")
        /// `conflict`: two or more receivers could take a callback; none got it (75).
        public static let conflict = Code(rawValue: "conflict")
        /// `busy`: a receiver did not answer and may have been the one (75).
        public static let busy = Code(rawValue: "busy")

        /// Lets `catch DesktopError.permission` match by code.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? DesktopError)?.code == code
        }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, message: String) {
        self.code = code
        self.message = message
    }

    public static let permission = Code.permission
    public static let unavailable = Code.unavailable
    public static let usage = Code.usage
    public static let rejected = Code.rejected
    public static let conflict = Code.conflict
    public static let busy = Code.busy

    /// A bad mode or owner, a foreign peer or socket.
    package static func permission(_ message: String) -> DesktopError { DesktopError(.permission, message: message) }
    /// Nothing to deliver to, or the system refused.
    package static func unavailable(_ message: String) -> DesktopError { DesktopError(.unavailable, message: message) }
    /// Bad usage or a configuration the helper will not touch.
    package static func usage(_ message: String) -> DesktopError { DesktopError(.usage, message: message) }

    public var description: String { message }
}

/// The name the helper's code has always used.
package typealias HelperFailure = DesktopError
