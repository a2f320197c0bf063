//! PNG encoding of the viewer's images, with the `png` crate.

use super::render::Image;

/// The image as an 8-bit RGB PNG.
pub fn encode(img: &Image) -> Result<Vec<u8>, String> {
    let (w, h) = (u32::try_from(img.width), u32::try_from(img.height));
    let (Ok(w), Ok(h)) = (w, h) else { return Err("an image too large to encode".into()) };
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Rgb);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Fast);
    let mut writer = enc.write_header().map_err(|e| e.to_string())?;
    writer.write_image_data(&img.rgb).map_err(|e| e.to_string())?;
    writer.finish().map_err(|e| e.to_string())?;
    Ok(out)
}
