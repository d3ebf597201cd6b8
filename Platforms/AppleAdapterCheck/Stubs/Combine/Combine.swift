// Combine, reduced to what Flowstate's SwiftUINavigator uses: a STUB for type-checking on Linux,
// where Combine does not exist. NOT Combine.
//
// Declarations copied from Apple's documentation (developer.apple.com/documentation/combine); the check
// is as faithful as these signatures and no more: nothing here behaves like Combine (bodies are
// `fatalError()`), so nothing here may be run. Simplified: `ObjectWillChangePublisher` is not
// constrained to `Publisher` (which is left out), and `Published` has no projected publisher.

/// developer.apple.com/documentation/combine/observableobject
/// (`protocol ObservableObject : AnyObject`)
public protocol ObservableObject: AnyObject {
    /// `associatedtype ObjectWillChangePublisher : Publisher = ObservableObjectPublisher`
    associatedtype ObjectWillChangePublisher = ObservableObjectPublisher
    /// `var objectWillChange: Self.ObjectWillChangePublisher { get }`
    var objectWillChange: Self.ObjectWillChangePublisher { get }
}

extension ObservableObject where Self.ObjectWillChangePublisher == ObservableObjectPublisher {
    /// `var objectWillChange: ObservableObjectPublisher { get }`, the default: it publishes the
    /// changes of the `@Published` properties.
    public var objectWillChange: ObservableObjectPublisher { fatalError("Combine stub") }
}

/// developer.apple.com/documentation/combine/observableobjectpublisher
public final class ObservableObjectPublisher {
    /// `init()`
    public init() {}
    /// `func send()`
    public func send() { fatalError("Combine stub") }
}

/// developer.apple.com/documentation/combine/published
/// (`@propertyWrapper struct Published<Value>`): usable on class properties only, through the
/// enclosing-instance subscript, as Combine's is.
@propertyWrapper
public struct Published<Value> {
    /// `init(wrappedValue: Value)`
    public init(wrappedValue: Value) { fatalError("Combine stub") }

    /// Unavailable, as in Combine: `@Published` is only available on properties of classes.
    @available(*, unavailable, message: "@Published is only available on properties of classes")
    public var wrappedValue: Value {
        get { fatalError("Combine stub") }
        set { fatalError("Combine stub") }
    }

    /// The enclosing-instance access Combine's `Published` implements.
    public static subscript<EnclosingSelf: AnyObject>(
        _enclosingInstance object: EnclosingSelf,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<EnclosingSelf, Published<Value>>
    ) -> Value {
        get { fatalError("Combine stub") }
        set { fatalError("Combine stub") }
    }
}
