// Replaced by the database template setup once the data layer lands.
export default async function setup() {}
