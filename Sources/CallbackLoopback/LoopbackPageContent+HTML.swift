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

import CallbackRouter

/// The pages' one document: a card on a quiet background, light or dark as the system
/// is, in the system's own font. The stylesheet is a constant, so the
/// `Content-Security-Policy` allows exactly it by its SHA-256 (no `'unsafe-inline'`);
/// nothing else may load: no script, image, font or frame.
extension LoopbackPageContent {
    func html(_ pages: LoopbackPages) -> String {
        let title = htmlEscaped(self.title)
        let app = pages.appName.map(htmlEscaped)
        let heading = app.map { "\(title) · \($0)" } ?? title
        var body = paragraphs(pages).map { "<p>\($0)</p>" }.joined(separator: "\n")
        if let closing = closing(pages) { body += "\n<p class=\"next\">\(closing)</p>" }
        let label = app.map { "<p class=\"app\">\($0)</p>\n" } ?? ""
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">\
            <meta name="color-scheme" content="light dark"><meta name="referrer" content="no-referrer">\
            <link rel="icon" href="data:,"><title>\(heading)</title><style>\(Self.stylesheet)</style></head>
            <body class="\(tone.rawValue)"><main>
            \(label)<div class="mark" aria-hidden="true">\(tone.mark)</div>
            <h1>\(title)</h1>
            \(body)
            </main></body></html>

            """
    }

    /// The one stylesheet: system font stack, light and dark (`prefers-color-scheme`), a
    /// bounded column. No `url()`, no `@import`, no web font: nothing to fetch.
    static let stylesheet = """
        :root{color-scheme:light dark;--bg:#f3f4f6;--card:#fff;--text:#1f2328;--muted:#59636e;--line:#d1d9e0;\
        --ok:#1a7f37;--warn:#9a6700;--bad:#cf222e}\
        @media (prefers-color-scheme:dark){:root{--bg:#0d1117;--card:#151b23;--text:#e6edf3;--muted:#9198a1;\
        --line:#3d444d;--ok:#3fb950;--warn:#d29922;--bad:#f85149}}\
        .ok{--accent:var(--ok)}.warn{--accent:var(--warn)}.bad{--accent:var(--bad)}\
        html{background:var(--bg)}\
        body{box-sizing:border-box;max-width:36rem;margin:0 auto;padding:12vh 1.25rem 2rem;background:var(--bg);\
        color:var(--text);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",Ubuntu,Cantarell,\
        "Helvetica Neue","Liberation Sans",Arial,sans-serif;-webkit-text-size-adjust:100%}\
        main{background:var(--card);border:1px solid var(--line);border-top:4px solid var(--accent);border-radius:12px;\
        padding:2rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}\
        .app{margin:0 0 1.25rem;color:var(--muted);font-size:.875rem;font-weight:600;overflow-wrap:anywhere}\
        .mark{width:3rem;height:3rem;border-radius:50%;background:var(--accent);color:var(--card);font-size:1.75rem;\
        font-weight:700;line-height:3rem;text-align:center}\
        h1{font-size:1.5rem;line-height:1.25;margin:1rem 0 .5rem}\
        p{margin:.5rem 0;overflow-wrap:anywhere}\
        .next{margin-top:1.5rem;padding-top:1rem;border-top:1px solid var(--line);color:var(--muted)}\
        code{font:.875em ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;background:var(--bg);\
        border:1px solid var(--line);border-radius:6px;padding:.1em .4em}\
        q{color:var(--muted)}
        """

    /// `'sha256-…'`: the CSP source that allows exactly ``stylesheet`` (CSP Level 3 §8.3:
    /// the standard, padded base64 of the SHA-256 of the element's text).
    static let stylesheetHashSource: String = {
        let digest = SHA256.hash(stylesheet.utf8)
        var base64 = ""
        for scalar in Base64URL.encode(digest).unicodeScalars {
            switch scalar {
            case "-": base64 += "+"
            case "_": base64 += "/"
            default: base64.unicodeScalars.append(scalar)
            }
        }
        while base64.utf8.count % 4 != 0 { base64 += "=" }
        return "'sha256-\(base64)'"
    }()
}

extension LoopbackPageContent.Tone {
    /// The sign in the page's round mark (decorative: `aria-hidden`).
    var mark: String {
        switch self {
        case .success: return "✓"
        case .warning: return "!"
        case .failure: return "×"
        }
    }
}
