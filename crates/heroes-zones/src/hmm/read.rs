//! The `.hmm` reader: follows PH `MapHandler.cpp::LoadMapFromFile` (specs/heroes.md c.3) for
//! versions 0x18 and 0x19 and requires the file to end exactly after the path elements.

use super::*;
use crate::error::HeroesError;

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

type R<T> = Result<T, HeroesError>;

impl Reader<'_> {
    fn err<T>(&self, m: impl Into<String>) -> R<T> {
        Err(HeroesError::Hmm {
            offset: self.at,
            message: m.into(),
        })
    }
    fn take(&mut self, n: usize) -> R<&[u8]> {
        if self.b.len() - self.at < n {
            return self.err(format!("unexpected end of file (wanted {n} more bytes)"));
        }
        let s = &self.b[self.at..self.at + n];
        self.at += n;
        Ok(s)
    }
    fn u8(&mut self) -> R<u8> {
        Ok(self.take(1)?[0])
    }
    fn i8(&mut self) -> R<i8> {
        Ok(self.u8()? as i8)
    }
    fn u16(&mut self) -> R<u16> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn i16(&mut self) -> R<i16> {
        Ok(self.u16()? as i16)
    }
    fn u32(&mut self) -> R<u32> {
        let s = self.take(4)?;
        Ok(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }
    fn i32(&mut self) -> R<i32> {
        Ok(self.u32()? as i32)
    }
    fn str(&mut self) -> R<String> {
        let n = self.u32()? as usize;
        if n > (self.b.len() - self.at) / 2 {
            return self.err(format!("string of {n} code units runs past the end"));
        }
        let s = self.take(n * 2)?;
        let units: Vec<u16> = s
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes([c[0], c[1]]))
            .collect();
        Ok(String::from_utf16_lossy(&units))
    }
    fn pos(&mut self) -> R<Pos> {
        Ok((self.i16()?, self.i16()?))
    }
    fn army(&mut self) -> R<Army> {
        let mut a = EMPTY_ARMY;
        for slot in &mut a {
            *slot = (self.i16()?, self.i32()?);
        }
        Ok(a)
    }
    /// A count, checked against the bytes left (each element takes at least `min` bytes).
    fn count(&mut self, n: usize, min: usize) -> R<usize> {
        if n.saturating_mul(min) > self.b.len() - self.at {
            return self.err(format!(
                "count {n} is larger than the rest of the file allows"
            ));
        }
        Ok(n)
    }
    fn list<T>(&mut self, n: usize, min: usize, mut f: impl FnMut(&mut Self) -> R<T>) -> R<Vec<T>> {
        let n = self.count(n, min)?;
        let mut v = Vec::with_capacity(n);
        for _ in 0..n {
            v.push(f(self)?);
        }
        Ok(v)
    }
}

impl HmmFile {
    /// Parses a `.hmm` file of version 0x18 or 0x19; the data must end exactly at EOF.
    pub fn parse(bytes: &[u8]) -> Result<HmmFile, HeroesError> {
        let mut r = Reader { b: bytes, at: 0 };
        if r.u32()? != KEY {
            r.at = 0;
            return r.err("not a .hmm file (header key 0x76235278 expected)");
        }
        let version = r.u32()?;
        if !(0x18..=0x19).contains(&version) {
            r.at = 4;
            return r.err(format!("version {version:#x} not supported (0x18 or 0x19)"));
        }
        let size_code = r.u8()?;
        if size_code > 3 {
            r.at -= 1;
            return r.err(format!("size code {size_code} (expected 0..3)"));
        }
        let (mut lng_mask, mut texts, mut name, mut description) =
            (0, Vec::new(), String::new(), String::new());
        if version > 0x18 {
            lng_mask = r.u32()?;
            let langs = (lng_mask & 3).count_ones() as usize;
            let n = r.u32()? as usize;
            texts = r.list(n, 6, |r| {
                let key = r.str()?;
                let tet = r.i16()?;
                let texts = (0..langs).map(|_| r.str()).collect::<R<Vec<_>>>()?;
                Ok(TextEntry { key, tet, texts })
            })?;
        } else {
            name = r.str()?;
            description = r.str()?;
        }
        let map_version = r.str()?;
        let author = r.str()?;
        let n = r.u16()? as usize;
        let time_events = r.list(n, 48, |r| {
            Ok(TimeEvent {
                name: r.str()?,
                text: r.str()?,
                player_mask: r.u32()?,
                first_time: r.u32()?,
                repeat: r.i32()?,
                minerals: [
                    r.i32()?,
                    r.i32()?,
                    r.i32()?,
                    r.i32()?,
                    r.i32()?,
                    r.i32()?,
                    r.i32()?,
                ],
            })
        })?;
        let ultimate = (r.pos()?, r.u32()?);
        let n = r.u16()? as usize;
        let players = r.list(n, 3, |r| {
            let id = r.i8()?;
            let type_mask = r.i8()?;
            let main_castle = if r.u8()? != 0 {
                Some((r.pos()?, r.u8()?))
            } else {
                None
            };
            Ok(Player {
                id,
                type_mask,
                main_castle,
            })
        })?;
        let n = r.u16()? as usize;
        let heroes = r.list(n, 60, |r| {
            let mut h = Hero {
                proto: r.str()?,
                owner: r.i8()?,
                pos: r.pos()?,
                custom_name: r.str()?,
                level: r.u32()?,
                experience: r.i32()?,
                skills: {
                    let n = r.u8()? as usize;
                    r.list(n, 2, |r| Ok((r.i8()?, r.i8()?)))?
                },
                artifacts: {
                    let n = r.u16()? as usize;
                    r.list(n, 4, |r| Ok((r.u16()?, r.i16()?)))?
                },
                furt_skills: {
                    let n = r.u16()? as usize;
                    r.list(n, 4, |r| Ok((r.u16()?, r.i16()?)))?
                },
                army: r.army()?,
                custom_spells: r.u8()?,
                spells: Vec::new(),
            };
            // The spell list follows only when the hero has custom spells (as in all samples).
            if h.custom_spells == 1 {
                let n = r.u16()? as usize;
                h.spells = r.list(n, 2, |r| r.u16())?;
            }
            Ok(h)
        })?;
        let n = r.u16()? as usize;
        let items = r.list(n, 51, |r| {
            let kind = r.u8()?;
            let pos = r.pos()?;
            let guard = r.army()?;
            let message = r.str()?;
            let tail = match kind {
                0 => ItemTail::Mineral(r.i8()?, r.i32()?),
                1 => ItemTail::Mana(r.i32()?),
                2 | 3 | 6 => ItemTail::Nothing,
                4 => ItemTail::Artifact(r.str()?),
                5 => ItemTail::Spell(r.u16()?),
                7 => ItemTail::Key(r.u8()?),
                _ => return r.err(format!("invalid map item type {kind}")),
            };
            Ok(MapItem {
                kind,
                pos,
                guard,
                message,
                tail,
            })
        })?;
        let n = r.u16()? as usize;
        let guards = r.list(n, 16, |r| {
            Ok(Guard {
                creature: r.i16()?,
                count: r.i32()?,
                disposition: r.u8()?,
                not_grow: r.u8()?,
                pos: r.pos()?,
                message: r.str()?,
            })
        })?;
        let n = r.u16()? as usize;
        let events = r.list(n, 60, |r| {
            Ok(MapEvent {
                pos: r.pos()?,
                guard: r.army()?,
                reward_msg: r.str()?,
                attack_msg: r.str()?,
                player_mask: r.u32()?,
                rewards: {
                    let n = r.u16()? as usize;
                    r.list(n, 8, |r| {
                        let kind = r.i32()?;
                        if kind == 7 {
                            Ok(Reward {
                                kind,
                                artifact: Some(r.str()?),
                                fparam: 0,
                                sparam: r.i32()?,
                            })
                        } else {
                            Ok(Reward {
                                kind,
                                artifact: None,
                                fparam: r.i32()?,
                                sparam: r.i32()?,
                            })
                        }
                    })?
                },
            })
        })?;
        let n = r.u16()? as usize;
        let visitables = r.list(n, 54, |r| {
            Ok(Visitable {
                id: r.str()?,
                pos: r.pos()?,
                guard: r.army()?,
                message: r.str()?,
            })
        })?;
        let n = r.u16()? as usize;
        let ownerables = r.list(n, 51, |r| {
            Ok(Ownerable {
                id: r.str()?,
                owner: r.i8()?,
                pos: r.pos()?,
                guard: r.army()?,
            })
        })?;
        let n = r.u16()? as usize;
        let castles = r.list(n, 60, |r| {
            Ok(Castle {
                id: r.str()?,
                ctype: r.u8()?,
                owner: r.i8()?,
                pos: r.pos()?,
                garrison: r.army()?,
                name: r.str()?,
                buildings: {
                    let n = r.u16()? as usize;
                    r.list(n, 2, |r| Ok((r.u8()?, r.u8()?)))?
                },
            })
        })?;
        let side = 32usize << size_code;
        let nodes = r.list((side + 1) * (side + 1), 2, |r| Ok((r.u8()?, r.u8()?)))?;
        let n = r.u32()? as usize;
        let decorations = r.list(n, 8, |r| Ok((r.pos()?, r.str()?)))?;
        let n = r.u32()? as usize;
        let paths = r.list(n, 8, |r| Ok((r.pos()?, r.str()?)))?;
        if r.at != bytes.len() {
            return r.err(format!(
                "{} bytes left after the path elements (expected EOF)",
                bytes.len() - r.at
            ));
        }
        Ok(HmmFile {
            version,
            size_code,
            lng_mask,
            texts,
            name,
            description,
            map_version,
            author,
            time_events,
            ultimate,
            players,
            heroes,
            items,
            guards,
            events,
            visitables,
            ownerables,
            castles,
            nodes,
            decorations,
            paths,
        })
    }
}
