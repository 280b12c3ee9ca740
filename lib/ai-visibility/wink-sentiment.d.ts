declare module "wink-sentiment" {
  interface SentimentResult {
    /** Sum of the AFINN scores of the phrase's words, emojis and emoticons. */
    score: number;
    /** The score averaged over scored words and adjusted for length; between -5 and +5. */
    normalizedScore: number;
    tokenizedPhrase: { value: string; tag: string; score?: number; negation?: boolean }[];
  }
  function sentiment(phrase: string): SentimentResult;
  export default sentiment;
}
