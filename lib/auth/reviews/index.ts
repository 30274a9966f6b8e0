// The access and identity reviews: virtual resources that answer a question and store nothing.
export { selfSubjectReviewEndpoint } from './selfSubjectReview';
export { tokenReviewEndpoint } from './tokenReview';
export type { TokenReviewOptions } from './tokenReview';
export { reviewAttributes, subjectAccessReviewEndpoint } from './subjectAccessReview';
export { selfSubjectRulesReviewEndpoint } from './selfSubjectRulesReview';
