//! Length-prefixed bytes for the request-response protocols (requests and replies alike): the
//! table's ([`TableCodec`]) and the spectators' ([`WatchCodec`] on [`WATCH_PROTOCOL`]).

use async_trait::async_trait;
use futures::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use libp2p::StreamProtocol;
use libp2p::request_response::Codec;

use crate::watch::WIRE_LIMIT;

/// The largest frame read or written: no table message or reply decodes beyond this size, so
/// a longer frame is refused from its length alone, before any of it is read.
const MAX_FRAME: usize = fairdeal_crypto::encoding::MAX_MESSAGE_BYTES;

/// How much a frame's buffer grows at a time.
const READ_CHUNK: usize = 8 * 1024;

/// `u32_be length ‖ bytes`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct TableCodec;

async fn read_frame<T: AsyncRead + Unpin + Send>(io: &mut T) -> std::io::Result<Vec<u8>> {
    read_frame_max(io, MAX_FRAME).await
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

async fn write_frame<T: AsyncWrite + Unpin + Send>(
    io: &mut T,
    bytes: &[u8],
) -> std::io::Result<()> {
    write_frame_max(io, bytes, MAX_FRAME).await
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
impl Codec for TableCodec {
    type Protocol = StreamProtocol;
    type Request = Vec<u8>;
    type Response = Vec<u8>;

    async fn read_request<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        read_frame(io).await
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        read_frame(io).await
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
        write_frame(io, &req).await
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
        write_frame(io, &res).await
    }
}

/// The spectators' protocol, apart from the table's: nothing sent on it reaches a table
/// session.
pub const WATCH_PROTOCOL: &str = "/fairdeal/watch/1";

/// Frames of at most [`WIRE_LIMIT`] bytes, `u32_be length ‖ bytes`.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct WatchCodec;

#[async_trait]
impl Codec for WatchCodec {
    type Protocol = StreamProtocol;
    type Request = Vec<u8>;
    type Response = Vec<u8>;

    async fn read_request<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        read_frame_max(io, WIRE_LIMIT).await
    }

    async fn read_response<T>(&mut self, _: &StreamProtocol, io: &mut T) -> std::io::Result<Vec<u8>>
    where
        T: AsyncRead + Unpin + Send,
    {
        read_frame_max(io, WIRE_LIMIT).await
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
        write_frame_max(io, &req, WIRE_LIMIT).await
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
        write_frame_max(io, &res, WIRE_LIMIT).await
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
        let got = block_on(read_frame(&mut Trickle(
            framed(body.len() as u32, &body),
            0,
        )))
        .unwrap();
        assert_eq!(got, body);
        assert_eq!(got.capacity(), body.len());
    }

    #[test]
    fn frames_too_long_or_cut_short_are_refused() {
        let long = framed(MAX_FRAME as u32 + 1, &[0; 8]);
        let e = block_on(read_frame(&mut Trickle(long, 0))).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        let short = framed(100, &[1; 99]);
        let e = block_on(read_frame(&mut Trickle(short, 0))).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::UnexpectedEof);
        let exact = framed(MAX_FRAME as u32, &vec![2; MAX_FRAME]);
        let got = block_on(read_frame(&mut Trickle(exact, 0))).unwrap();
        assert_eq!(got.len(), MAX_FRAME);
    }
}
