// The toolchain's Testing module declares a cross-import overlay for UIKit
// (Testing.swiftcrossimport/UIKit.swiftoverlay names `_Testing_UIKit`) but ships that
// module only on Apple platforms. With the shim's UIKit beside Testing, the compiler asks
// for it; this empty module is what it finds on Linux, so the adapter tests need no
// compiler flags.
