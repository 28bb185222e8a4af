// BackgroundTasks re-exports Foundation (Date, and Dispatch's DispatchQueue), so code that
// imports only BackgroundTasks sees it; the shim does the same.
@_exported public import Foundation
