// The only module of the package that imports Foundation.
import Foundation
@_exported import CallbackRouter
