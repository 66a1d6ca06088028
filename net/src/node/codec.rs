//! Length-prefixed bytes for the request-response protocols (requests and replies alike): one
//! [`FrameCodec`], with the table's frame limit ([`FrameCodec::TABLE`]) or the spectators'
//! ([`FrameCodec::WATCH`] on [`WATCH_PROTOCOL`]).

use async_trait::async_trait;
use futures::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use libp2p::StreamProtocol;
use libp2p::request_response::Codec;

use crate::watch::WIRE_LIMIT;

/// The largest table frame read or written: no table message or reply decodes beyond this
/// size, so a longer frame is refused from its length alone, before any of it is read.
const MAX_FRAME: usize = fairdeal_crypto::encoding::MAX_MESSAGE_BYTES;

/// How much a frame's buffer grows at a time.
const READ_CHUNK: usize = 8 * 1024;

/// The spectators' protocol, apart from the table's: nothing sent on it reaches a table
/// session.
pub const WATCH_PROTOCOL: &str = "/fairdeal/watch/1";

/// `u32_be length ‖ bytes`, refusing any frame longer than `max` in either direction.
#[derive(Debug, Clone, Copy)]
pub(crate) struct FrameCodec {
    max: usize,
}

impl FrameCodec {
    /// The table's protocol: frames up to the largest table message.
    pub(crate) const TABLE: Self = Self { max: MAX_FRAME };
    /// The spectators' protocol: frames up to [`WIRE_LIMIT`].
    pub(crate) const WATCH: Self = Self { max: WIRE_LIMIT };
}

/// Reads one frame of at most `max` bytes.
pub(crate) async fn read_frame_max<T: AsyncRead + Unpin + Send>(
    io: &mut T,
    max: usize,
) -> std::io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    io.read_exact(&mut len).await?;
    let len = u32::from_be_bytes(len) as usize;
    if len > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "frame too large",
        ));
    }
    // Grown by at most one chunk past what has arrived (never allocated from the announced
    // length): a frame cut short holds little more than what was sent. Each byte is zeroed
    // once and the buffer moves at most `len / READ_CHUNK` times, however small the reads.
    let mut buf = Vec::new();
    let mut filled = 0;
    while filled < len {
        if filled == buf.len() {
            let grow = (len - filled).min(READ_CHUNK);
            buf.reserve_exact(grow);
            buf.resize(filled + grow, 0);
        }
        let n = io.read(&mut buf[filled..]).await?;
        if n == 0 {
            return Err(std::io::Error::new(
                std::io::ErrorKind::UnexpectedEof,
                "frame cut short",
            ));
        }
        filled += n;
    }
    Ok(buf)
}

/// Writes one frame of at most `max` bytes.
pub(crate) async fn write_frame_max<T: AsyncWrite + Unpin + Send>(
    io: &mut T,
    bytes: &[u8],
    max: usize,
) -> std::io::Result<()> {
    if bytes.len() > max {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "frame too large",
        ));
    }
    io.write_all(&(bytes.len() as u32).to_be_bytes()).await?;
    io.write_all(bytes).await?;
    io.close().await
}

#[async_trait]
impl Codec for FrameCodec {
    type Protocol = StreamProtocol;
    type Request = Vec<u8>;
    type Response = Vec<u8>;

    async fn read_request<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        read_frame_max(io, self.max).await
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        read_frame_max(io, self.max).await
    }

    async fn write_request<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        req: Vec<u8>,
    ) -> std::io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        write_frame_max(io, &req, self.max).await
    }

    async fn write_response<T>(
        &mut self,
        _: &StreamProtocol,
        io: &mut T,
        res: Vec<u8>,
    ) -> std::io::Result<()>
    where
        T: AsyncWrite + Unpin + Send,
    {
        write_frame_max(io, &res, self.max).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::executor::block_on;
    use std::pin::Pin;
    use std::task::{Context, Poll};

    /// Hands out its bytes one at a time (the smallest reads a peer can force).
    struct Trickle(Vec<u8>, usize);

    impl AsyncRead for Trickle {
        fn poll_read(
            mut self: Pin<&mut Self>,
            _: &mut Context<'_>,
            buf: &mut [u8],
        ) -> Poll<std::io::Result<usize>> {
            let at = self.1;
            if at == self.0.len() || buf.is_empty() {
                return Poll::Ready(Ok(0));
            }
            buf[0] = self.0[at];
            self.1 += 1;
            Poll::Ready(Ok(1))
        }
    }

    fn framed(announced: u32, body: &[u8]) -> Vec<u8> {
        let mut b = announced.to_be_bytes().to_vec();
        b.extend_from_slice(body);
        b
    }

    #[test]
    fn a_frame_read_byte_by_byte_is_whole_and_holds_no_more_than_it_needs() {
        let body: Vec<u8> = (0..3 * READ_CHUNK + 17).map(|i| (i % 251) as u8).collect();
        let got = block_on(read_frame_max(
            &mut Trickle(framed(body.len() as u32, &body), 0),
            MAX_FRAME,
        ))
        .unwrap();
        assert_eq!(got, body);
        assert_eq!(got.capacity(), body.len());
    }

    #[test]
    fn frames_too_long_or_cut_short_are_refused() {
        let long = framed(MAX_FRAME as u32 + 1, &[0; 8]);
        let e = block_on(read_frame_max(&mut Trickle(long, 0), MAX_FRAME)).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        let short = framed(100, &[1; 99]);
        let e = block_on(read_frame_max(&mut Trickle(short, 0), MAX_FRAME)).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof);
        let exact = framed(MAX_FRAME as u32, &vec![2; MAX_FRAME]);
        let got = block_on(read_frame_max(&mut Trickle(exact, 0), MAX_FRAME)).unwrap();
        assert_eq!(got.len(), MAX_FRAME);
    }

    #[test]
    fn each_protocol_refuses_frames_past_its_own_limit() {
        let protocol = StreamProtocol::new(WATCH_PROTOCOL);
        for codec in [FrameCodec::TABLE, FrameCodec::WATCH] {
            let mut codec = codec;
            let at_limit = framed(codec.max as u32, &vec![3; codec.max]);
            let got = block_on(codec.read_request(&protocol, &mut Trickle(at_limit, 0))).unwrap();
            assert_eq!(got.len(), codec.max);
            let past = framed(codec.max as u32 + 1, &[0; 8]);
            let e = block_on(codec.read_response(&protocol, &mut Trickle(past, 0))).unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
            let mut sink = futures::io::Cursor::new(Vec::new());
            let e = block_on(codec.write_request(&protocol, &mut sink, vec![0; codec.max + 1]))
                .unwrap_err();
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput);
        }
        assert_ne!(FrameCodec::TABLE.max, FrameCodec::WATCH.max);
    }
}
