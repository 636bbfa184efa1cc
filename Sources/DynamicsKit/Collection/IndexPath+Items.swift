import Foundation

#if !canImport(UIKit) && !canImport(AppKit)
// UIKit and AppKit add these to Foundation's `IndexPath`; Foundation on Linux has none of them.
extension IndexPath {
    /// The index path of item `item` in section `section` (`[section, item]`).
    public init(item: Int, section: Int) {
        // Built from its two indexes, not from an array literal: no array is allocated.
        self.init(index: section)
        append(item)
    }

    /// The item's index within its section (the second index).
    public var item: Int {
        get { self[1] }
        set { self[1] = newValue }
    }

    /// The section's index (the first index).
    public var section: Int {
        get { self[0] }
        set { self[0] = newValue }
    }
}
#endif
