//! The Debug Adapter Protocol's base protocol: a header part of `Name: value` lines ended
//! by an empty line (`\r\n`), of which `Content-Length` is required, then that many bytes
//! of UTF-8 JSON.
//!
//! [`read_frame`] never allocates more than [`MAX_BODY`] bytes for a body nor more than
//! [`MAX_HEADER`] for a header line, whatever the input claims: a frame past those limits
//! is a [`FrameError`], and so is a header without a usable `Content-Length`. After an
//! error the reader goes on with the next line as a header (a bad frame's body, if one
//! follows, is read as header lines and refused too, never waited for): a bad frame costs
//! error events, not the connection, and a huge `Content-Length` is neither allocated nor
//! waited for.

use std::io::{BufRead, Read, Write};

/// The largest body accepted (a `setBreakpoints` of a long file is a few kB).
pub const MAX_BODY: usize = 16 << 20;

/// The longest header line accepted.
pub const MAX_HEADER: usize = 1024;

/// What [`read_frame`] read.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// A body (its bytes; the JSON is not parsed here).
    Body(Vec<u8>),
    /// A malformed frame: the message for an error event. Reading can go on.
    Bad(FrameError),
    /// The input ended between frames (or inside a header).
    Eof,
    /// The input ended inside a body: the input is over, and the message says what was cut.
    Cut(FrameError),
}

#[derive(Debug, PartialEq, Eq)]
pub struct FrameError(pub String);

/// Read one frame.
pub fn read_frame(input: &mut dyn BufRead) -> std::io::Result<Frame> {
    let mut length: Option<Result<usize, String>> = None;
    let mut seen_any = false;
    loop {
        let line = match read_line(input)? {
            Line::Eof => return Ok(Frame::Eof),
            Line::TooLong => {
                return Ok(Frame::Bad(FrameError(format!(
                    "a header line longer than {MAX_HEADER} bytes"
                ))))
            }
            Line::Text(l) => l,
        };
        if line.is_empty() {
            if !seen_any {
                // Blank lines between frames are skipped.
                continue;
            }
            break;
        }
        seen_any = true;
        let Some((name, value)) = line.split_once(':') else {
            length = Some(Err(format!(
                "a header line without `:`: {:?}",
                shorten(&line)
            )));
            continue;
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            let value = value.trim();
            length = Some(match value.parse::<usize>() {
                Ok(n) if n <= MAX_BODY => Ok(n),
                Ok(n) => Err(format!(
                    "Content-Length {n} is larger than the {MAX_BODY} bytes accepted"
                )),
                Err(_) => Err(format!(
                    "Content-Length is not a number: {:?}",
                    shorten(value)
                )),
            });
        }
    }
    let n = match length {
        None => {
            return Ok(Frame::Bad(FrameError(
                "a header without Content-Length".into(),
            )))
        }
        Some(Err(e)) => return Ok(Frame::Bad(FrameError(e))),
        Some(Ok(n)) => n,
    };
    let mut body = Vec::with_capacity(n.min(64 << 10));
    input.take(n as u64).read_to_end(&mut body)?;
    if body.len() < n {
        return Ok(Frame::Cut(FrameError(format!(
            "the input ended inside a frame: {} of the {n} bytes its Content-Length announced",
            body.len()
        ))));
    }
    Ok(Frame::Body(body))
}

enum Line {
    Text(String),
    TooLong,
    Eof,
}

/// One header line without its `\r\n` (or `\n`), read in at most [`MAX_HEADER`] bytes
/// (a longer line is consumed to its end and refused).
fn read_line(input: &mut dyn BufRead) -> std::io::Result<Line> {
    let mut buf = Vec::new();
    let mut too_long = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            // (a header cut by the end of input is no frame)
            return Ok(Line::Eof);
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        if !too_long {
            buf.extend_from_slice(&chunk[..take]);
            if buf.len() > MAX_HEADER + 2 {
                too_long = true;
                buf.clear();
            }
        }
        input.consume(take);
        if done {
            break;
        }
    }
    if too_long {
        return Ok(Line::TooLong);
    }
    while matches!(buf.last(), Some(b'\n' | b'\r')) {
        buf.pop();
    }
    Ok(Line::Text(String::from_utf8_lossy(&buf).into_owned()))
}

fn shorten(s: &str) -> String {
    s.chars().take(40).collect()
}

/// Write one frame: the header and `body`, then flush.
pub fn write_frame(out: &mut dyn Write, body: &[u8]) -> std::io::Result<()> {
    write!(out, "Content-Length: {}\r\n\r\n", body.len())?;
    out.write_all(body)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn frames(input: &[u8]) -> Vec<Frame> {
        let mut r = std::io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            let f = read_frame(&mut r).unwrap();
            let end = f == Frame::Eof;
            out.push(f);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn frames_are_read_in_order_with_any_header_case_and_blank_lines() {
        let mut input = Vec::new();
        write_frame(&mut input, b"{\"a\":1}").unwrap();
        input.extend_from_slice(b"\r\ncontent-length: 2\r\nContent-Type: x\r\n\r\n{}");
        input.extend_from_slice(b"Content-Length:3\n\n[1]");
        assert_eq!(
            frames(&input),
            [
                Frame::Body(b"{\"a\":1}".to_vec()),
                Frame::Body(b"{}".to_vec()),
                Frame::Body(b"[1]".to_vec()),
                Frame::Eof
            ]
        );
    }

    #[test]
    fn bad_headers_are_errors_and_reading_goes_on() {
        let input = b"Content-Length: x\r\n\r\nFoo: 1\r\n\r\nContent-Length: 99999999999\r\n\r\nno colon\r\n\r\nContent-Length: 2\r\n\r\n{}";
        let got = frames(input);
        let bad: Vec<&str> = got
            .iter()
            .filter_map(|f| match f {
                Frame::Bad(FrameError(m)) => Some(m.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(bad.len(), 4, "{got:?}");
        assert!(bad[0].contains("not a number"));
        assert!(bad[1].contains("without Content-Length"));
        assert!(bad[2].contains("larger than"));
        assert!(bad[3].contains("without `:`"));
        assert_eq!(got[got.len() - 2], Frame::Body(b"{}".to_vec()));
    }

    #[test]
    fn a_cut_frame_is_the_end_of_input() {
        let got = frames(b"Content-Length: 10\r\n\r\n{}");
        assert!(
            matches!(&got[..], [Frame::Cut(FrameError(m)), Frame::Eof] if m.contains("2 of the 10 bytes")),
            "{got:?}"
        );
        assert_eq!(frames(b"Content-Len"), [Frame::Eof]);
    }

    #[test]
    fn a_huge_header_line_is_refused_without_keeping_it() {
        let mut input = vec![b'x'; 10 * MAX_HEADER];
        input.extend_from_slice(b"\r\n\r\nContent-Length: 2\r\n\r\n{}");
        let got = frames(&input);
        assert!(matches!(got[0], Frame::Bad(_)), "{got:?}");
        assert!(got.contains(&Frame::Body(b"{}".to_vec())));
    }

    proptest! {
        /// Random bytes never panic and every body read is within the limit and the
        /// input's length; the reader always reaches the end.
        #[test]
        fn random_bytes_end_in_eof(input in proptest::collection::vec(any::<u8>(), 0..400)) {
            let got = frames(&input);
            prop_assert_eq!(got.last(), Some(&Frame::Eof));
            for f in &got {
                if let Frame::Body(b) = f {
                    prop_assert!(b.len() <= input.len());
                }
            }
        }

        /// Any frame written is read back whole, cut anywhere it is the end of input.
        #[test]
        fn written_frames_read_back(body in proptest::collection::vec(any::<u8>(), 0..200), cut in 0usize..300) {
            let mut input = Vec::new();
            write_frame(&mut input, &body).unwrap();
            prop_assert_eq!(frames(&input), vec![Frame::Body(body.clone()), Frame::Eof]);
            let cut = cut.min(input.len());
            let got = frames(&input[..cut]);
            prop_assert_eq!(got.last(), Some(&Frame::Eof));
        }
    }
}
