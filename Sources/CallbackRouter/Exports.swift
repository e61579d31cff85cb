// `import CallbackRouter` brings the parser's types (CallbackURL, ReasonCode, ParseError) too.
@_exported import CallbackParsing
