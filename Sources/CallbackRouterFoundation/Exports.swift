// The only module of the package that imports Foundation: it converts between Foundation's
// `URL` and our types. Each string is interpreted by one parser, ours; a `URL` handed out
// is built from our components and checked to mean the same thing to Foundation.
@_exported import CallbackRouter
