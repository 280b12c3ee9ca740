/**
 * schema.org types this validator knows, with the properties Google's rich-result documentation requires
 * or recommends (developers.google.com/search/docs/appearance/structured-data). Where Google lists no
 * required property (Article, Organization) the property without which the item says nothing is required.
 */
export interface TypeRule {
  required?: string[];
  /** Each group needs at least one of its properties (Product: offers, review or aggregateRating). */
  requiredAnyOf?: string[][];
  /** Required only for a stand-alone item; nested inside its subject they are implied. */
  requiredWhenTopLevel?: string[];
  recommended?: string[];
  /** Object values of these properties must be (subtypes of) one of the listed types. */
  expects?: Record<string, string[]>;
}

const SCHEMA_RULES: Record<string, TypeRule> = {
  Article: {
    required: ["headline"],
    recommended: ["author", "datePublished", "dateModified", "image", "publisher"],
  },
  Product: {
    required: ["name"],
    requiredAnyOf: [["offers", "review", "aggregateRating"]],
    recommended: ["image", "description", "brand", "sku"],
    expects: {
      offers: ["Offer", "AggregateOffer"],
      aggregateRating: ["AggregateRating"],
      review: ["Review"],
    },
  },
  Offer: {
    required: ["priceCurrency"],
    requiredAnyOf: [["price", "priceSpecification"]],
    recommended: ["availability", "url", "priceValidUntil"],
  },
  AggregateOffer: { required: ["lowPrice", "priceCurrency"], recommended: ["highPrice", "offerCount"] },
  FAQPage: { required: ["mainEntity"], expects: { mainEntity: ["Question"] } },
  QAPage: { required: ["mainEntity"], expects: { mainEntity: ["Question"] } },
  Question: {
    required: ["name"],
    requiredAnyOf: [["acceptedAnswer", "suggestedAnswer"]],
    expects: { acceptedAnswer: ["Answer"], suggestedAnswer: ["Answer"] },
  },
  Answer: { required: ["text"] },
  HowTo: {
    required: ["name", "step"],
    recommended: ["image", "totalTime", "supply", "tool", "description"],
    expects: { step: ["HowToStep", "HowToSection"] },
  },
  HowToStep: { requiredAnyOf: [["text", "itemListElement"]], recommended: ["name", "url", "image"] },
  HowToSection: { required: ["name", "itemListElement"] },
  Organization: { required: ["name"], recommended: ["url", "logo", "sameAs", "contactPoint"] },
  LocalBusiness: {
    required: ["name", "address"],
    recommended: ["telephone", "url", "openingHoursSpecification", "geo", "priceRange", "image"],
  },
  BreadcrumbList: { required: ["itemListElement"], expects: { itemListElement: ["ListItem"] } },
  ListItem: { required: ["position"], requiredAnyOf: [["name", "item"]] },
  WebSite: { required: ["name", "url"], recommended: ["potentialAction", "alternateName"] },
  Event: {
    required: ["name", "startDate", "location"],
    recommended: ["description", "endDate", "eventStatus", "image", "offers", "organizer", "performer"],
    expects: { offers: ["Offer", "AggregateOffer"] },
  },
  Recipe: {
    required: ["name", "image"],
    recommended: [
      "author",
      "datePublished",
      "description",
      "recipeIngredient",
      "recipeInstructions",
      "recipeYield",
      "totalTime",
      "nutrition",
      "aggregateRating",
    ],
  },
  Review: {
    required: ["author", "reviewRating"],
    requiredWhenTopLevel: ["itemReviewed"],
    recommended: ["datePublished", "reviewBody"],
    expects: { reviewRating: ["Rating"] },
  },
  Rating: { required: ["ratingValue"], recommended: ["bestRating", "worstRating"] },
  AggregateRating: {
    required: ["ratingValue"],
    requiredAnyOf: [["ratingCount", "reviewCount"]],
    requiredWhenTopLevel: ["itemReviewed"],
    recommended: ["bestRating", "worstRating"],
  },
  VideoObject: {
    required: ["name", "thumbnailUrl", "uploadDate"],
    recommended: ["description", "duration", "contentUrl", "embedUrl"],
  },
  Person: { required: ["name"], recommended: ["url", "sameAs", "jobTitle", "image"] },
  JobPosting: {
    required: ["title", "description", "datePosted", "hiringOrganization"],
    requiredAnyOf: [["jobLocation", "applicantLocationRequirements"]],
    recommended: ["baseSalary", "employmentType", "validThrough"],
  },
  SoftwareApplication: {
    required: ["name", "offers"],
    requiredAnyOf: [["aggregateRating", "review"]],
    recommended: ["applicationCategory", "operatingSystem"],
  },
  Course: { required: ["name", "description"], recommended: ["provider"] },
};

/** Subtype → supertype, so a NewsArticle is checked as an Article and a Restaurant as a LocalBusiness. */
const SCHEMA_PARENTS: Record<string, string> = {
  NewsArticle: "Article",
  BlogPosting: "Article",
  TechArticle: "Article",
  ScholarlyArticle: "Article",
  Report: "Article",
  LiveBlogPosting: "BlogPosting",
  AnalysisNewsArticle: "NewsArticle",
  OpinionNewsArticle: "NewsArticle",
  ReportageNewsArticle: "NewsArticle",
  SocialMediaPosting: "Article",
  DiscussionForumPosting: "SocialMediaPosting",
  ProductModel: "Product",
  IndividualProduct: "Product",
  ProductGroup: "Product",
  Vehicle: "Product",
  Car: "Vehicle",
  LocalBusiness: "Organization",
  Corporation: "Organization",
  NGO: "Organization",
  EducationalOrganization: "Organization",
  GovernmentOrganization: "Organization",
  NewsMediaOrganization: "Organization",
  OnlineBusiness: "Organization",
  OnlineStore: "OnlineBusiness",
  MedicalOrganization: "Organization",
  SportsOrganization: "Organization",
  Airline: "Organization",
  PerformingGroup: "Organization",
  Consortium: "Organization",
  CollegeOrUniversity: "EducationalOrganization",
  Restaurant: "FoodEstablishment",
  CafeOrCoffeeShop: "FoodEstablishment",
  BarOrPub: "FoodEstablishment",
  Bakery: "FoodEstablishment",
  FastFoodRestaurant: "FoodEstablishment",
  FoodEstablishment: "LocalBusiness",
  Store: "LocalBusiness",
  ClothingStore: "Store",
  BookStore: "Store",
  ElectronicsStore: "Store",
  GroceryStore: "Store",
  HardwareStore: "Store",
  Dentist: "LocalBusiness",
  MedicalBusiness: "LocalBusiness",
  AutomotiveBusiness: "LocalBusiness",
  AutoRepair: "AutomotiveBusiness",
  LegalService: "LocalBusiness",
  Attorney: "LegalService",
  FinancialService: "LocalBusiness",
  LodgingBusiness: "LocalBusiness",
  Hotel: "LodgingBusiness",
  RealEstateAgent: "LocalBusiness",
  ProfessionalService: "LocalBusiness",
  HealthAndBeautyBusiness: "LocalBusiness",
  HomeAndConstructionBusiness: "LocalBusiness",
  Plumber: "HomeAndConstructionBusiness",
  Electrician: "HomeAndConstructionBusiness",
  SportsActivityLocation: "LocalBusiness",
  TravelAgency: "LocalBusiness",
  ChildCare: "LocalBusiness",
  EntertainmentBusiness: "LocalBusiness",
  EmploymentAgency: "LocalBusiness",
  MusicEvent: "Event",
  SportsEvent: "Event",
  BusinessEvent: "Event",
  EducationEvent: "Event",
  Festival: "Event",
  TheaterEvent: "Event",
  ComedyEvent: "Event",
  ExhibitionEvent: "Event",
  CriticReview: "Review",
  UserReview: "Review",
  EmployerReview: "Review",
  EmployerAggregateRating: "AggregateRating",
  MobileApplication: "SoftwareApplication",
  WebApplication: "SoftwareApplication",
  VideoGame: "SoftwareApplication",
};

/** The type itself and its supertypes, nearest first. */
function listAncestors(type: string): string[] {
  const chain = [type];
  let current = SCHEMA_PARENTS[type];
  while (current && !chain.includes(current)) {
    chain.push(current);
    current = SCHEMA_PARENTS[current];
  }
  return chain;
}

export function isSchemaType(type: string, target: string): boolean {
  return listAncestors(type).includes(target);
}

/** The rule for a type, inherited from the nearest supertype that has one. */
export function findRule(type: string): { ruleType: string; rule: TypeRule } | undefined {
  for (const t of listAncestors(type)) {
    const rule = SCHEMA_RULES[t];
    if (rule) return { ruleType: t, rule };
  }
  return undefined;
}
