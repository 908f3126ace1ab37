//! The `.hmm` writer: the exact mirror of the reader (specs/heroes.md c.3).

use super::*;

struct W(Vec<u8>);

impl W {
    fn u8(&mut self, v: u8) {
        self.0.push(v);
    }
    fn u16(&mut self, v: u16) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.extend_from_slice(&v.to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        let units: Vec<u16> = s.encode_utf16().collect();
        self.u32(units.len() as u32);
        for u in units {
            self.u16(u);
        }
    }
    fn pos(&mut self, p: Pos) {
        self.u16(p.0 as u16);
        self.u16(p.1 as u16);
    }
    fn army(&mut self, a: &Army) {
        for &(t, c) in a {
            self.u16(t as u16);
            self.u32(c as u32);
        }
    }
    fn count16(&mut self, n: usize) {
        self.u16(n.min(u16::MAX as usize) as u16);
    }
}

impl HmmFile {
    /// The file's bytes. Lists longer than their count field allows are cut to fit.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = W(Vec::with_capacity(self.nodes.len() * 2 + 4096));
        w.u32(KEY);
        w.u32(self.version);
        w.u8(self.size_code);
        if self.version > 0x18 {
            w.u32(self.lng_mask);
            w.u32(self.texts.len() as u32);
            for t in &self.texts {
                w.str(&t.key);
                w.u16(t.tet as u16);
                for s in &t.texts {
                    w.str(s);
                }
            }
        } else {
            w.str(&self.name);
            w.str(&self.description);
        }
        w.str(&self.map_version);
        w.str(&self.author);
        w.count16(self.time_events.len());
        for e in self.time_events.iter().take(u16::MAX as usize) {
            w.str(&e.name);
            w.str(&e.text);
            w.u32(e.player_mask);
            w.u32(e.first_time);
            w.u32(e.repeat as u32);
            for m in e.minerals {
                w.u32(m as u32);
            }
        }
        w.pos(self.ultimate.0);
        w.u32(self.ultimate.1);
        w.count16(self.players.len());
        for p in self.players.iter().take(u16::MAX as usize) {
            w.u8(p.id as u8);
            w.u8(p.type_mask as u8);
            match p.main_castle {
                Some((pos, hero)) => {
                    w.u8(1);
                    w.pos(pos);
                    w.u8(hero);
                }
                None => w.u8(0),
            }
        }
        w.count16(self.heroes.len());
        for h in self.heroes.iter().take(u16::MAX as usize) {
            w.str(&h.proto);
            w.u8(h.owner as u8);
            w.pos(h.pos);
            w.str(&h.custom_name);
            w.u32(h.level);
            w.u32(h.experience as u32);
            w.u8(h.skills.len().min(255) as u8);
            for &(s, l) in h.skills.iter().take(255) {
                w.u8(s as u8);
                w.u8(l as u8);
            }
            w.count16(h.artifacts.len());
            for &(a, c) in h.artifacts.iter().take(u16::MAX as usize) {
                w.u16(a);
                w.u16(c as u16);
            }
            w.count16(h.furt_skills.len());
            for &(a, c) in h.furt_skills.iter().take(u16::MAX as usize) {
                w.u16(a);
                w.u16(c as u16);
            }
            w.army(&h.army);
            w.u8(h.custom_spells);
            if h.custom_spells == 1 {
                w.count16(h.spells.len());
                for &s in h.spells.iter().take(u16::MAX as usize) {
                    w.u16(s);
                }
            }
        }
        w.count16(self.items.len());
        for it in self.items.iter().take(u16::MAX as usize) {
            w.u8(it.kind);
            w.pos(it.pos);
            w.army(&it.guard);
            w.str(&it.message);
            match &it.tail {
                ItemTail::Mineral(m, a) => {
                    w.u8(*m as u8);
                    w.u32(*a as u32);
                }
                ItemTail::Mana(a) => w.u32(*a as u32),
                ItemTail::Nothing => {}
                ItemTail::Artifact(s) => w.str(s),
                ItemTail::Spell(s) => w.u16(*s),
                ItemTail::Key(k) => w.u8(*k),
            }
        }
        w.count16(self.guards.len());
        for g in self.guards.iter().take(u16::MAX as usize) {
            w.u16(g.creature as u16);
            w.u32(g.count as u32);
            w.u8(g.disposition);
            w.u8(g.not_grow);
            w.pos(g.pos);
            w.str(&g.message);
        }
        w.count16(self.events.len());
        for e in self.events.iter().take(u16::MAX as usize) {
            w.pos(e.pos);
            w.army(&e.guard);
            w.str(&e.reward_msg);
            w.str(&e.attack_msg);
            w.u32(e.player_mask);
            w.count16(e.rewards.len());
            for r in e.rewards.iter().take(u16::MAX as usize) {
                w.u32(r.kind as u32);
                match &r.artifact {
                    Some(a) if r.kind == 7 => w.str(a),
                    _ if r.kind == 7 => w.str(""),
                    _ => w.u32(r.fparam as u32),
                }
                w.u32(r.sparam as u32);
            }
        }
        w.count16(self.visitables.len());
        for v in self.visitables.iter().take(u16::MAX as usize) {
            w.str(&v.id);
            w.pos(v.pos);
            w.army(&v.guard);
            w.str(&v.message);
        }
        w.count16(self.ownerables.len());
        for o in self.ownerables.iter().take(u16::MAX as usize) {
            w.str(&o.id);
            w.u8(o.owner as u8);
            w.pos(o.pos);
            w.army(&o.guard);
        }
        w.count16(self.castles.len());
        for c in self.castles.iter().take(u16::MAX as usize) {
            w.str(&c.id);
            w.u8(c.ctype);
            w.u8(c.owner as u8);
            w.pos(c.pos);
            w.army(&c.garrison);
            w.str(&c.name);
            w.count16(c.buildings.len());
            for &(t, s) in c.buildings.iter().take(u16::MAX as usize) {
                w.u8(t);
                w.u8(s);
            }
        }
        for &(s, a) in &self.nodes {
            w.u8(s);
            w.u8(a);
        }
        w.u32(self.decorations.len() as u32);
        for (p, id) in &self.decorations {
            w.pos(*p);
            w.str(id);
        }
        w.u32(self.paths.len() as u32);
        for (p, id) in &self.paths {
            w.pos(*p);
            w.str(id);
        }
        w.0
    }
}
