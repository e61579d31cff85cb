#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes from the operating system's CSPRNG, for states, nonces and PKCE verifiers.
///
/// - Linux: `getentropy(3)`, which is glibc's wrapper of the `getrandom(2)` system call
///   (flags 0: blocks only until the kernel pool is first seeded, then never). The Glibc
///   module does not export `getrandom` itself (`sys/random.h` is not in its module map);
///   `getentropy` is the same syscall with glibc's loop on `EINTR` and short reads, in
///   requests of at most 256 bytes.
/// - Apple platforms: `arc4random_buf(3)`, which cannot fail.
///
/// There is no fallback to any other generator, weak or not. If the kernel refuses
/// (`ENOSYS` on a pre-3.17 kernel, or a seccomp filter that denies the syscall), the
/// process stops with a message naming `errno`: a login secret drawn from anything else
/// would be guessable, and an error thrown here would only be caught and ignored by code
/// that cannot do anything better. The standard library's `SystemRandomNumberGenerator`
/// makes the same choice. On every supported system this path is unreachable.
public enum SecureRandom {
    /// `count` random bytes (an empty array for 0). `count` is the caller's constant,
    /// never input: a negative one is a programming error.
    public static func bytes(_ count: Int) -> [UInt8] {
        precondition(count >= 0, "SecureRandom.bytes: a negative byte count")
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { fill($0) }
        return result
    }

    /// Fills `buffer` with random bytes.
    public static func fill(_ buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return }
        #if canImport(Darwin)
        arc4random_buf(base, buffer.count)
        #else
        var offset = 0
        while offset < buffer.count {
            let chunk = min(256, buffer.count - offset) // getentropy's per-call maximum
            if getentropy(base + offset, chunk) == 0 {
                offset += chunk
            } else if errno != EINTR {
                fatalError("SecureRandom: getentropy/getrandom failed (errno \(errno)); refusing to continue without a CSPRNG")
            }
        }
        #endif
    }
}
