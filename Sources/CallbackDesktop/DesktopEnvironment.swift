#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The environment the desktop integration reads (`HOME`, `XDG_*`, `PATH`), without Foundation.
public enum DesktopEnvironment {
    /// The environment variables of this process, read from `environ`.
    public static func current() -> [String: String] {
        var result: [String: String] = [:]
        #if canImport(Darwin)
        // A library cannot use `environ` on Darwin (environ(7)): _NSGetEnviron is the way.
        guard var pointer = _NSGetEnviron().pointee else { return result }
        #else
        var pointer = environ
        #endif
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
