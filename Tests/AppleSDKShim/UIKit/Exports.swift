// UIKit re-exports Foundation (NotificationCenter, Notification.Name, TimeInterval), so
// code that imports only UIKit sees it; the shim does the same.
@_exported public import Foundation
