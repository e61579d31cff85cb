import Testing
@testable import CallbackRouterFoundation
