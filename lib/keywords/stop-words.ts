/**
 * Words that never start or end a keyphrase: function words, and words of web pages' furniture
 * (navigation, legal and call-to-action boilerplate) that describe no topic.
 */
const STOP_WORDS = new Set(
  `a about above after again against all almost also although always am among an and another any anyone anything
are aren't around as at away back be became because become been before being below between both but by can can't
cannot could couldn't did didn't do does doesn't doing don't done down during each either else enough etc even ever
every few first for from further get gets getting give given go goes going got had hadn't has hasn't have haven't
having he he'd he'll he's her here here's hers herself him himself his how how's however i i'd i'll i'm i've if in
into is isn't it it's its itself just last least less let's like likely made make makes many may maybe me might
more most much must mustn't my myself near need needs never new next no nor not now of off often on once one only
onto or other others otherwise our ours ourselves out over own per perhaps put quite rather really same see seem
seems several shall shan't she she'd she'll she's should shouldn't since so some something sometimes still such
take than that that's the their theirs them themselves then there there's therefore these they they'd they'll
they're they've thing things this those though through thus to too toward towards two under until up upon us use
used uses using very via was wasn't way we we'd we'll we're we've well were weren't what what's whatever when
when's where where's whether which while who who's whom whose why why's will with within without won't would
wouldn't yet you you'd you'll you're you've your yours yourself yourselves
home page menu skip content main click here read learn view show hide back top next previous share tweet login
log sign signin signup register account cookie cookies privacy policy terms conditions copyright rights reserved
all-rights-reserved © contact newsletter subscribe follow email search toggle navigation loading close open
more read-more continue
faq faqs guide guides blog post posts article articles answer answers question questions quick details background
overview introduction intro tips help page pages site website welcome`
    .split(/\s+/)
    .filter(Boolean),
);

/** Numbers written as words, cardinal and ordinal: a phrase of them ("five", "twenty one") names no topic. */
const NUMBER_WORDS = new Set(
  `zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen
eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred hundreds thousand thousands million
millions billion billions dozen dozens half quarter second third fourth fifth sixth seventh eighth ninth tenth
once twice`
    .split(/\s+/)
    .filter(Boolean),
);

/** A number however written: digits with separators, a number word, an ordinal ("3rd"), a percentage. */
function isNumberLike(word: string): boolean {
  return NUMBER_WORDS.has(word) || /^[\d.,%]+$/.test(word) || /^\d+(st|nd|rd|th|s|k|m|x)$/.test(word);
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word) || isNumberLike(word) || word.length < 2;
}

/**
 * Whether a candidate keyphrase can stand as a keyphrase: not made only of stop words and numbers, and a single
 * word of at least three letters (two-letter tokens such as "eu" or "uk" are abbreviations that name no topic alone).
 */
export function isKeyphraseCandidate(words: readonly string[]): boolean {
  if (words.length === 0 || words.every(isStopWord)) return false;
  if (words.length === 1 && words[0]!.length < 3) return false;
  return true;
}
