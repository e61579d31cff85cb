//===----------------------------------------------------------------------===//
//
// This source file is part of the CallbackRouter open source project
//
// Copyright (c) 2026 the CallbackRouter project authors
// Licensed under Apache License v2.0
//
// See LICENSE for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

import CallbackSystem

/// The paste descriptor (a terminal): callback URLs pasted one per line, each judged exactly
/// as a request's.
extension LoopbackServer {
    /// Reads what `pasting` has now and judges each complete line; a line longer than
    /// ``LoopbackReceiver/Configuration/maxHeadBytes`` is dropped up to its newline. Stops at
    /// the line that ends the wait.
    func readPastedLines(from pasting: Int32, _ wait: inout Wait, judge: LoopbackJudge, log: (String) -> Void) {
        let limit = configuration.maxHeadBytes
        switch NonBlockingIO.readAvailable(pasting, into: &wait.pasteBuffer, limit: 4096) {
        case .closed:
            wait.paste = nil
            log("the terminal closed: pasted URLs are no longer read")
        case .wouldBlock:
            break
        case .transferred:
            while let newline = wait.pasteBuffer.firstIndex(of: 0x0A) {
                var line = Array(wait.pasteBuffer[..<newline])
                wait.pasteBuffer.removeSubrange(...newline)
                if wait.discardingLongLine {
                    wait.discardingLongLine = false
                    continue
                }
                while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
                while let first = line.first, first == 0x20 || first == 0x09 { line.removeFirst() }
                guard !line.isEmpty else { continue }
                judgePastedLine(String(decoding: line, as: UTF8.self), &wait, judge: judge, log: log)
                if wait.verdict != nil { break }
            }
            if wait.pasteBuffer.count > limit {
                wait.pasteBuffer.removeAll()
                wait.discardingLongLine = true
                log("a pasted line is longer than \(limit) bytes: ignored")
            }
        }
    }

    /// One pasted line, judged as the callback URL of a request would be.
    private func judgePastedLine(_ text: String, _ wait: inout Wait, judge: LoopbackJudge, log: (String) -> Void) {
        // Like a request for another path (404), a URL of another place is not a callback
        // of this receiver: it is ignored, never final.
        guard isOwnCallbackURL(text) else {
            wait.ignored += 1
            log("the pasted line is not a URL of this receiver (\(redirectURI)); paste the whole URL from the browser's address bar")
            return
        }
        let judgement = judge(text)
        switch judgement.disposition {
        case .endsWait:
            wait.verdict = judgement.evaluation
            log("the pasted URL ended the wait")
        case .accepted:
            log("the pasted URL was accepted")
        case .ignored:
            wait.ignored += 1
            log(
                "the pasted line is not this login's callback (\(judgement.evaluation.reason?.rawValue ?? "not accepted")); paste the whole URL from the browser's address bar"
            )
        }
    }
}
