export * from './userInfo';
export * from './tokenRequest';
export * from './tokenReview';
export * from './selfSubjectReview';
