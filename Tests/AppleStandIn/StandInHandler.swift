internal import NIOCore
internal import NIOHTTP1

/// One connection's requests: answered by `AppleStandIn.respond` after its latency, or misbehaving as told.
final class StandInHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let standIn: AppleStandIn
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []

    init(standIn: AppleStandIn) { self.standIn = standIn }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            head = request
            body = []
        case .body(let buffer): body += buffer.readableBytesView
        case .end:
            guard let head else { return }
            self.head = nil
            let (response, latency) = standIn.respond(
                method: head.method.rawValue, uri: head.uri, authorization: head.headers.first(name: "Authorization"),
                body: body)
            let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
            let keepAlive = head.isKeepAlive
            context.eventLoop.scheduleTask(in: .milliseconds(Int64(latency * 1000))) {
                self.write(response, context: loopBound.value, keepAlive: keepAlive)
            }
        }
    }

    private func write(_ response: StandInResponse, context: ChannelHandlerContext, keepAlive: Bool) {
        var headers = HTTPHeaders(response.headers)
        switch response.fault {
        case .neverEnding:
            headers.add(name: "Content-Length", value: "100000")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
            )
            context.writeAndFlush(
                wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: [0x1f, 0x8b, 0x08])))), promise: nil)
        case .cutBody:
            headers.add(name: "Content-Length", value: "100000")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
            )
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: [0x1f, 0x8b, 0x08, 0, 0])))))
                .whenComplete { _ in context.close(promise: nil) }
        default:
            headers.add(name: "Content-Length", value: "\(response.body.count)")
            if !keepAlive { headers.add(name: "Connection", value: "close") }
            let status = HTTPResponseStatus(statusCode: response.status)
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                promise: nil)
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: response.body)))), promise: nil)
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
                if !keepAlive { context.close(promise: nil) }
            }
        }
    }
}
