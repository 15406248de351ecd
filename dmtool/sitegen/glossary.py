"""The glossary of game terms: the words the describer links (Ref kind 'term'), each with a
short definition in this project's own words and an anchor of its own."""

from __future__ import annotations

from dmtool.sitegen.markdown import slug

GLOSSARY_PAGE = "reference/glossary.md"

# term -> definition (Markdown written here, trusted).
TERMS: dict[str, str] = {
    "abomination": "The great monster of a Dawn of Madness game, drawn from a family. Killing "
                   "it is one of the two things the wanderer stage needs to be won.",
    "central wanderer": "The wanderer whose storybook is being played; the storybook's "
                        "rewards and punishments that name no one go to them.",
    "coda card": "A card a storybook hands out to remember what happened; its front changes "
                 "the holder's sentience and its back adds dice of its colours to "
                 "confrontations. Entries can ask whether you hold one.",
    "completed token": "A token put on a world shard once its encounter has been played out.",
    "condition card": "A lasting, mostly harmful card a wanderer receives, of one of eleven "
                      "types (Burdened, Withered, ...); each type has its own deck.",
    "confrontation card": "One of the abomination's ten cards; the active one says what the "
                          "abomination does and which domains confront it.",
    "damage": "Harm of a colour. A wanderer may take a defense test in that colour to prevent "
              "some of it; what is not prevented becomes wounds.",
    "devour card": "A card of the devour rule, resolved when a devour token lies in a "
                   "wanderer's space.",
    "devour token": "A token of the devour rule placed on world shards; resolving a devour "
                    "card needs one in your space.",
    "domain": "A colour and a symbol (red hand, blue brain, ...), rolled on sentience dice or "
              "stored on a wanderer's dashboard to pay for actions and meet tests.",
    "domain card": "An item card with a use and the domains printed on its lower part; a "
                   "wanderer may hold only a limited number.",
    "encounter card": "A card on a world shard that names a storybook entry; a wanderer there "
                      "may take the encounter action to read it.",
    "existence token": "A token that stands for the wanderer's grip on being; it buys "
                       "existence cards and can be given up instead of health.",
    "finale legacy card": "The card a concluded finale gives the central wanderer, kept for "
                          "later games.",
    "final boss": "The monster a finale may bring onto the board.",
    "forgotten envelope": "A wanderer's sealed envelope of locked cards; entries unlock them, "
                          "and they stay unlocked in later games.",
    "health": "How much harm a character can take: it dies when its wounds reach its maximum "
              "health.",
    "infection card": "A Rise of Dagon card each investigator holds face down; revealing it "
                      "shows whether they are infected.",
    "infection token": "A Rise of Dagon token that marks an investigator as infected.",
    "malformation": "One of the three monsters linked to a wanderer, spawned when that "
                    "wanderer dies.",
    "mental capacity": "What a character spends to act. A wanderer at zero loses health "
                       "instead.",
    "red consequence token": "A red token of the wanderer's consequences, put on a world shard "
                             "by a storybook entry.",
    "blue consequence token": "A blue token of the wanderer's consequences, put on a world "
                              "shard by a storybook entry.",
    "sentience": "A wanderer's value in a colour: how many dice of that colour they roll in "
                 "tests of it.",
    "terror": "A monster of the terror deck, or one named by a storybook.",
    "trapped": "A trapped wanderer stays on their world shard and may only take the actions "
               "the entry allows until a test releases them.",
    "void token": "A token that makes a world shard void.",
    "wanderer": "A playable character of Dawn of Madness, with a dashboard, cards and a "
                "storybook.",
    "wanderer stage": "The first part of a game: ten rounds to reach the score goal and kill "
                      "the abomination. Winning it leads to the finale.",
    "world shard": "One of the sixteen board cards that make up the Otherworld; the "
                   "otherworld die picks one at random.",
    "wound": "A point of harm on a character; health is lost as wounds.",
}


def term_anchor(term: str) -> str:
    return slug(term)


def glossary_page() -> str:
    blocks = ["# Glossary",
              "The game terms used in this site's descriptions of effects and conditions. "
              "Each term in a description links here the first time it appears in a block."]
    for term in sorted(TERMS):
        blocks += [f"## {term[:1].upper() + term[1:]} {{#{term_anchor(term)}}}", TERMS[term]]
    return "\n\n".join(blocks) + "\n"
